import ReminderCore
import Testing
import Translation

@Suite("Messages and their arguments")
struct MessageTests {
    @Test func positionalArgumentsGoWhereTheTranslationPutsThem() {
        #expect(Message.format("%1$s, %2$d tablets", ["Metformin", "2"]) == "Metformin, 2 tablets")
        // A translation may turn the order round.
        #expect(Message.format("%2$d Tabletten: %1$s", ["Metformin", "2"]) == "2 Tabletten: Metformin")
        #expect(Message.format("%1$s und %1$s", ["a"]) == "a und a")
    }

    @Test func aPercentSignIsWrittenTwice() {
        #expect(Message.format("100%% of %1$s", ["doses"]) == "100% of doses")
        #expect(Message.format("%%1$s", ["x"]) == "%1$s")
    }

    @Test func aDirectiveThatNamesNoArgumentStaysAsWritten() {
        #expect(Message.format("%3$s left", ["a"]) == "%3$s left")
        #expect(Message.format("50% off %1$s", ["x"]) == "50% off x")
        #expect(Message.format("ends with %", []) == "ends with %")
        #expect(Message.format("%1$x", ["y"]) == "%1$x")
        #expect(Message.format("%99999999999999999999$s and %1$", ["z"]) == "%99999999999999999999$s and %1$")
    }

    @Test func textBesideTheDirectivesIsKeptWhateverItsScript() {
        #expect(Message.format("Übermorgen: %1$s für 5 €, 日本 %2$d", ["Ärztin 👩‍⚕️", "3"]) == "Übermorgen: Ärztin 👩‍⚕️ für 5 €, 日本 3")
        #expect(Message.format("nothing to fill", ["a"]) == "nothing to fill")
    }

    @Test func englishChoosesThePluralByTheCount() {
        let english = UntranslatedCatalog()
        let days = Message("%1$d day", plural: "%1$d days")
        #expect(english(days, count: 1, 1) == "1 day")
        #expect(english(days, count: 0, 0) == "0 days")
        #expect(english(days, count: 3, 3) == "3 days")
        #expect(english(Message("Taken")) == "Taken")
    }

    @Test func englishNamesWeekdaysAndMonths() {
        let english = UntranslatedCatalog()
        #expect(english.name(of: .sunday, abbreviated: true) == "Sun")
        #expect(english.name(of: .wednesday, abbreviated: false) == "Wednesday")
        #expect(english.name(ofMonth: 11, abbreviated: true) == "Nov")
        #expect(english.name(ofMonth: 2, abbreviated: false) == "February")
    }

    @Test func catalogsAreFoundBesideTheProgramOrInTheCheckout() {
        #expect(GettextCatalog.localeFolder(executable: "/usr/bin/remindd") == "/usr/share/locale")
        #expect(GettextCatalog.localeFolder(executable: "/home/ana/.local/bin/remindctl") == "/home/ana/.local/share/locale")
        #expect(
            GettextCatalog.localeFolder(executable: "/work/remindd/.build/x86_64-unknown-linux-gnu/debug/remindd")
                == "/work/remindd/.build/locale")
    }

    @Test func gettextGivesAMessageWithoutATranslationAsWritten() {
        let catalog = GettextCatalog.start(executable: "/nonexistent/bin/remindd")
        let message = Message("No translation has this: %1$s", plural: "None has these: %1$s")
        #expect(catalog(message, "x") == "No translation has this: x")
        #expect(catalog(message, count: 2, "y") == "None has these: y")
    }
}
