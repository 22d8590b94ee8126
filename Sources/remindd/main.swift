// Process set-up that must precede every thread, then the command (parsed and run as AsyncParsableCommand.main does).
let words = Remindd.prepareProcess()
do {
    if CommandLine.arguments.count == 1 {
        // As the unit starts it: the defaults, with no parse to make.
        try await DaemonStart().serve(words: words)
    } else {
        var command = try Remindd.parseAsRoot()
        if let daemon = command as? Remindd, daemon.checkConfig {
            try daemon.start.printConfigurationCheck()
        } else if let daemon = command as? Remindd, daemon.prepareState {
            try daemon.start.printStatePreparation()
        } else if let daemon = command as? Remindd {
            try await daemon.start.serve(words: words)
        } else {
            try command.run()  // --help, --version
        }
    }
} catch {
    Remindd.exit(withError: error)
}
