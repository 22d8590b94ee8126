/// `next` and `status`, which a status bar or a script runs every few seconds, read without argument-parser: its
/// reflection over a command's options was two thirds of `remindctl next`'s instructions (by callgrind, 11.4
/// million of 17). Only their plain forms are read here: the commands' own options, each at most once, with values
/// that do not start with "-". Anything else (help, a version, a completion script, a mistake) is left to the whole
/// tree, which answers as it always did. A test runs every accepted form both ways and compares what each does.
enum FrequentCommands {
    /// The options read here, by command: each command's own (a test checks them against its help, so that an
    /// option added to the command cannot be missed here).
    static let optionNames: [String: (flags: Set<String>, valued: Set<String>)] = [
        "next": (["--json"], ["--count", "--socket"]),
        "status": (["--json"], ["--format", "--socket"]),
    ]

    /// The command `arguments` ask for, ready to run; nil when they are not one of the plain forms.
    static func parse(_ arguments: [String]) -> (() throws -> Void)? {
        guard let name = arguments.first, let known = Self.optionNames[name],
            let options = options(arguments.dropFirst(), flags: known.flags, valued: known.valued)
        else { return nil }
        let (daemon, json) = (DaemonSocket(socket: options["--socket"]), options["--json"] != nil)
        switch name {
        case "next":
            guard let count = options["--count"].map({ Int($0) }) ?? NextCommand.defaultCount else { return nil }
            return { try NextCommand.show(count: count, json: json, daemon: daemon) }
        case "status":
            guard let format = options["--format"].map({ StatusCommand.Format(rawValue: $0) }) ?? StatusCommand.defaultFormat else { return nil }
            return { try StatusCommand.show(json: json, format: format, daemon: daemon) }
        default:
            return nil
        }
    }

    /// The options of `words` by name (a flag's value is empty): `--flag`, `--name value` or `--name=value`, each
    /// at most once, no value empty or starting with "-"; nil when there is anything else.
    static func options(_ words: ArraySlice<String>, flags: Set<String>, valued: Set<String>) -> [String: String]? {
        var found: [String: String] = [:]
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            index += 1
            let value: String
            let name: String
            if flags.contains(word) {
                (name, value) = (word, "")
            } else if let equals = word.firstIndex(of: "="), valued.contains(String(word[..<equals])) {
                (name, value) = (String(word[..<equals]), String(word[word.index(after: equals)...]))
                guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
            } else if valued.contains(word), index < words.endIndex, !words[index].isEmpty, !words[index].hasPrefix("-") {
                (name, value) = (word, words[index])
                index += 1
            } else {
                return nil
            }
            guard found.updateValue(value, forKey: name) == nil else { return nil }
        }
        return found
    }
}
