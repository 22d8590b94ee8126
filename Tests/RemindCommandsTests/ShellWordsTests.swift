@testable import RemindCommands
import Testing

/// Quoting for the shell: what `escaped` and `join` write, a shell (here `split`, which quotes as POSIX shells
/// do) reads back as the same words.
@Suite struct ShellWordsTests {
    static let awkward = ["Evening walk", "Eve's pill", "$(touch x) y", "a\"b", "back\\slash", "tab\there", "*?[!]", "~home", "Vitamin D3", "Zähne"]

    @Test(arguments: awkward) func anEscapedWordIsReadBackAsOneWord(_ word: String) throws {
        #expect(try ShellWords.split(ShellWords.escaped(word)) == [word])
    }

    @Test func joinedWordsAreReadBackAsTheSameWords() throws {
        #expect(try ShellWords.split(ShellWords.join(Self.awkward)) == Self.awkward)
    }

    @Test func plainWordsAreLeftAsTheyAre() {
        #expect(ShellWords.escaped("Vitamin_D3.daily") == "Vitamin_D3.daily")
        #expect(ShellWords.escaped("Eve's pill") == #"Eve\'s\ pill"#)
    }
}
