import Foundation
import Testing

@testable import SystemdSupport

/// What a hook leaves running is found by the mark in its environment (``ProcessTree/marked(_:)``), read from
/// `/proc`: also while the process is between two programs, when the kernel shows its environment as empty.
@Suite("Process tree")
struct ProcessTreeTests {
    /// A process that runs one program after another (each `exec`s the next) is found in every look: a hook's
    /// child caught in its `exec` was missed and outlived the hook (CI, once).
    @Test func aMarkedProcessIsFoundInEveryLookWhileItExecsProgramAfterProgram() throws {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-chain-\(UUID().uuidString).sh").path
        try "exec /bin/sh \"$0\"\n".write(toFile: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: script) }  // a file of this test's, gone or not
        let mark = ProcessTree.markName + "=" + UUID().uuidString
        let chain = Process()
        chain.executableURL = URL(fileURLWithPath: "/bin/sh")
        chain.arguments = [script]
        chain.environment = ["PATH": "/usr/bin:/bin", ProcessTree.markName: String(mark.dropFirst(ProcessTree.markName.count + 1))]
        try chain.run()
        defer {
            kill(chain.processIdentifier, SIGKILL)  // not SIGTERM: the shell may have it ignored, inherited from the runner
            chain.waitUntilExit()
        }
        var missed = 0
        for _ in 0..<300 where !ProcessTree.marked(mark).contains(chain.processIdentifier) { missed += 1 }
        #expect(missed == 0)
    }
}
