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

    @Test func paddingFillsToTheColumn() {
        #expect("薬 💊".padded(toDisplayWidth: 8) == "薬 💊   ")
        #expect("Vitamin D".padded(toDisplayWidth: 4) == "Vitamin D")
    }
}
