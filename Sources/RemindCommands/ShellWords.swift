/// Splits a command line into words the way a POSIX shell quotes them (single and double quotes, backslash),
/// without expanding anything: `--exec '/usr/bin/notify-send "Take it"'` is a program and one argument.
enum ShellWords {
    struct UnterminatedQuote: Error, CustomStringConvertible {
        var description: String { "a quote is not closed: close it, e.g. '/usr/bin/notify-send \"Take it\"'" }
    }

    static func split(_ text: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
            } else if let open = quote {
                if character == open {
                    quote = nil
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { throw UnterminatedQuote() }
        if inWord { words.append(current) }
        return words
    }

    /// The words quoted back into one line (single quotes around any word that needs them).
    static func join(_ words: [String]) -> String {
        words.map { word in
            let plain = !word.isEmpty && word.allSatisfy(isPlain)
            return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        }.joined(separator: " ")
    }

    /// The word with a backslash before each character a shell treats specially: `Eve\'s\ pill`.
    static func escaped(_ word: String) -> String {
        var escaped = ""
        for character in word {
            if !isPlain(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    private static func isPlain(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "/-_.,:=+@%".contains(character)
    }
}
