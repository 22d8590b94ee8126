import ArgumentParser

/// `remindctl`: the control CLI of remindd.
@main
struct RemindCtl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remindctl",
        abstract: "Control remindd, the reminder and habit daemon.",
        discussion: """
            Examples:
              remindctl preview --weekly mon,thu --at 18:00 --tz Europe/Berlin
              remindctl preview --preset "Twice Monthly" --start 2026-12-20T08:00 --count 4 --json
            """,
        subcommands: [PreviewCommand.self]
    )
}

/// A failure to show the user in one line (printed as `Error: ...`, exit status 1).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
