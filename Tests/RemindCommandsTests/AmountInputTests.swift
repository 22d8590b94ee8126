import ReminderCore
@testable import RemindCommands
import Testing

/// Amounts as people type them get a useful one-line answer: `--dose -2` ("Missing value" before), `--dose 500 mg`
/// ("Unexpected argument 'mg'" before), `--dose 1/2`; and no error echoes more than 80 characters of its input.
@Suite struct AmountInputTests {
    @Test func anAmountIsKeptWithItsOption() {
        #expect(RemindCtl.amountsTogether(["add", "X", "--daily", "--dose", "-2", "--unit", "mg"]) == ["add", "X", "--daily", "--dose=-2", "--unit", "mg"])
        #expect(RemindCtl.amountsTogether(["add", "X", "--dose", "500", "mg", "--daily"]) == ["add", "X", "--dose=500 mg", "--daily"])
        #expect(RemindCtl.amountsTogether(["log", "X", "--amount", "2", "tablets"]) == ["log", "X", "--amount=2 tablets"])
        // What is not an amount and a unit is left as it is.
        #expect(RemindCtl.amountsTogether(["add", "X", "--dose", "2", "--unit", "tablet"]) == ["add", "X", "--dose", "2", "--unit", "tablet"])
        #expect(RemindCtl.amountsTogether(["add", "mg", "--dose", "2mg"]) == ["add", "mg", "--dose", "2mg"])
        #expect(RemindCtl.amountsTogether(["--", "--dose", "-2"]) == ["--", "--dose", "-2"])
    }

    @Test(arguments: [("-2", "a dose is more than 0"), ("1/2", "write a fraction as a decimal (a half: 0.5"), ("500 mg", nil), ("0.5 tablet", nil)])
    func eachDoseGetsAUsefulAnswer(_ text: String, answer: String?) {
        do {
            _ = try Dose(amount: text, unit: nil)
            #expect(answer == nil)
        } catch {
            #expect(answer.map { error.message.contains($0) } == true, "\(error.message)")
        }
    }

    @Test func anErrorQuotesAtMost80CharactersOfItsInput() throws {
        let long = String(repeating: "9", count: 10_000) + "x"
        let error = #expect(throws: RuleSpecError.self) { try Dose(amount: long, unit: nil) }
        #expect((error?.message.count ?? .max) < 300, "\(error?.message.count ?? 0)")
        #expect(quotedInput(long) == "'" + String(repeating: "9", count: 80) + "...'")
        #expect(quotedInput("a\nb") == "'a\\nb'")
    }
}
