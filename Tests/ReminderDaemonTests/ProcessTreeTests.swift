import Foundation
import Testing

@testable import SystemdSupport

/// What a hook leaves running is found by the mark in its environment (``ProcessTree/marked(_:)``), read from
/// `/proc`: also while the process is between two programs, when the kernel shows its environment as empty.
@Suite("Process tree")
struct ProcessTreeTests {
    /// A process that runs one program after another (each `exec`s the next) is found in every look: a hook's
    /// child caught in its `exec` was missed and outlived the hook (CI, once), and a look held up between opening
    /// the environment and reading it read the program before, gone by then (this test, once in three runs of the
    /// whole suite).
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

    /// A process started without an environment is read as having none (and passed over), not looked at again
    /// and again as if it were between two programs; a marked one beside it is found.
    @Test func aProcessWithoutAnEnvironmentIsPassedOverAndAMarkedOneFound() throws {
        let mark = ProcessTree.markName + "=" + UUID().uuidString
        func sleeper(_ environment: [String: String]) throws -> Process {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sleep")
            process.arguments = ["30"]
            process.environment = environment
            try process.run()
            return process
        }
        let bare = try sleeper([:])
        let marked = try sleeper([ProcessTree.markName: String(mark.dropFirst(ProcessTree.markName.count + 1))])
        defer {
            for process in [bare, marked] {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }
        // Both have started their program (sleep's own name, its environment laid out); at most 10 s.
        for process in [bare, marked] {
            var looks = 0
            while try String(contentsOfFile: "/proc/\(process.processIdentifier)/comm", encoding: .utf8) != "sleep\n", looks < 10_000 {
                usleep(1000)
                looks += 1
            }
        }
        let found = ProcessTree.marked(mark)
        #expect(found.contains(marked.processIdentifier))
        #expect(!found.contains(bare.processIdentifier))
    }
}
