// Process set-up that must precede every thread, then the command (parsed and run as AsyncParsableCommand.main does).
let words = Remindd.prepareProcess()
do {
    var command = try Remindd.parseAsRoot()
    if let daemon = command as? Remindd, daemon.checkConfig {
        try daemon.printConfigurationCheck()
    } else if let daemon = command as? Remindd, daemon.prepareState {
        try daemon.printStatePreparation()
    } else if let daemon = command as? Remindd {
        try await daemon.serve(words: words)
    } else {
        try command.run()  // --help, --version
    }
} catch {
    Remindd.exit(withError: error)
}
