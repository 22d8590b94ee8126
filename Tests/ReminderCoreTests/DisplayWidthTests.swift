import ReminderCore
import Testing

/// Tables align by the columns a terminal gives each character: emoji and CJK names misaligned `list`.
@Suite("Display width")
struct DisplayWidthTests {
    @Test func wideCharactersTakeTwoColumnsAndAccentsNone() {
        #expect("Pills".displayWidth == 5)
        #expect("薬".displayWidth == 2)
        #expect("💊".displayWidth == 2)
        #expect("👩‍⚕️".displayWidth == 2)  // one emoji sequence
        #expect("e\u{301}".displayWidth == 1)  // e with a combining accent
        #expect("ｖｉｔ".displayWidth == 6)  // fullwidth forms
        #expect("☀️ sun".displayWidth == 6)  // a text symbol shown as an emoji
    }

    /// Spaces, tabs and other Unicode spaces around a text go, inside it they stay (as Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, which ReminderCore no longer imports); line breaks are not spaces.
    @Test func surroundingSpacesAreTrimmed() {
        #expect(" \t\u{00A0}Vitamin  D\u{3000} ".withoutSurroundingSpaces == "Vitamin  D")
        #expect("Vitamin D".withoutSurroundingSpaces == "Vitamin D" && "   ".withoutSurroundingSpaces == "" && "".withoutSurroundingSpaces == "")
        #expect(" é ".withoutSurroundingSpaces == "é" && "\nx\n".withoutSurroundingSpaces == "\nx\n")
    }

    @Test func paddingFillsToTheColumn() {
        #expect("薬 💊".padded(toDisplayWidth: 8) == "薬 💊   ")
        #expect("Vitamin D".padded(toDisplayWidth: 4) == "Vitamin D")
    }
}
