import Foundation
import Synchronization
import SystemdSupport
import Testing

/// The journal's socket as journald has it: a datagram socket bound at a path, read by the test.
private final class JournaldStandIn {
    let path: String
    private var descriptor: Int32 = -1

    init(path: String) throws {
        self.path = path
        try listen()
    }

    deinit { stop() }

    /// Binds a new socket at the path (a journald started again).
    func listen() throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path.utf8CString.withUnsafeBytes($0.copyMemory) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Closes the socket and removes its file (a journald that stopped).
    func stop() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(path)
    }

    /// The next entry: a datagram's bytes, or those of the memfd passed instead (SCM_RIGHTS); nil after 5 s.
    func receive() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        var control = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { buffer in
            control.withUnsafeMutableBytes { controlBuffer in
                var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = controlBuffer.baseAddress
                    message.msg_controllen = controlBuffer.count
                    let received = recvmsg(descriptor, &message, 0)
                    return (received, message.msg_controllen)
                }
            }
        }
        guard count.0 >= 0 else { return nil }
        // A cmsghdr (its length as size_t, level, type), then the descriptor: an entry too large for a datagram.
        if count.1 >= MemoryLayout<cmsghdr>.size + 4 {
            let passed = control.withUnsafeBytes { $0.load(fromByteOffset: MemoryLayout<cmsghdr>.size, as: Int32.self) }
            defer { close(passed) }
            var contents: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while case let read = pread(passed, &chunk, chunk.count, off_t(contents.count)), read > 0 { contents += chunk[..<read] }
            return contents
        }
        return Array(bytes[..<count.0])
    }
}

@Suite("Journal on its socket")
struct JournalSocketTests {
    private static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)  // the bind says if it failed
        return path
    }

    @Test func entriesReachTheSocketAtTheGivenPathInTheNativeFormat() throws {
        let journald = try JournaldStandIn(path: Self.folder() + "/socket")
        let journal = Journal(identifier: "remindd-test", socketPath: journald.path)
        #expect(journal.send("Reminder 'Dose' is due", priority: .notice, fields: [("REMINDER_ID", "7"), ("DETAIL", "two\nlines")]))
        let expected = Array("MESSAGE=Reminder 'Dose' is due\nPRIORITY=5\nSYSLOG_IDENTIFIER=remindd-test\nREMINDER_ID=7\nDETAIL\n".utf8)
            + [9, 0, 0, 0, 0, 0, 0, 0] + Array("two\nlines\n".utf8)
        #expect(journald.receive() == expected)
        // The hooks' entries go on the same socket, under their own identifier.
        #expect(journal.named("remindd-hook").send("hook said", priority: .info))
        #expect(journald.receive() == Array("MESSAGE=hook said\nPRIORITY=6\nSYSLOG_IDENTIFIER=remindd-hook\n".utf8))
    }

    /// A journald started again at the same path (its socket a new one) gets the next entry: the socket connected to
    /// the old one is connected again; while none listens, entries go to stderr.
    @Test func aJournaldStartedAgainGetsTheNextEntry() throws {
        let journald = try JournaldStandIn(path: Self.folder() + "/socket")
        let journal = Journal(identifier: "remindd-test", socketPath: journald.path)
        #expect(journal.send("first", priority: .notice))
        #expect(journald.receive().map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("MESSAGE=first\n") == true)
        journald.stop()
        try journald.listen()
        #expect(journal.send("second", priority: .notice))
        #expect(journald.receive().map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("MESSAGE=second\n") == true)
        journald.stop()
        #expect(!journal.send("to stderr", priority: .notice))
        try journald.listen()
        #expect(journal.send("third", priority: .notice))
        #expect(journald.receive().map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("MESSAGE=third\n") == true)
    }

    /// A send waiting for journald's full queue, interrupted by a signal whose handler does not restart it (one
    /// installed without SA_RESTART), is sent again: before, the entry went to stderr as refused ("Interrupted
    /// system call").
    @Test func aSendInterruptedByASignalIsSentAgain() throws {
        let journald = try JournaldStandIn(path: Self.folder() + "/socket")
        let journal = Journal(identifier: "remindd-test", socketPath: journald.path)
        var action = sigaction(), previous = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0  // no SA_RESTART: a waiting send returns EINTR
        sigaction(SIGUSR1, &action, &previous)
        defer { sigaction(SIGUSR1, &previous, nil) }
        // More entries than the socket queues (10 here, 512 under systemd): the sender ends up waiting for the reader.
        let count = 1_000
        let sender = Sender()
        let thread = Thread { sender.run(count) { journal.send("entry \($0)", priority: .notice) } }
        thread.start()
        let waiting = try #require(sender.waitingForTheQueue(), "the sender never waited for the socket's queue")
        #expect(pthread_kill(waiting, SIGUSR1) == 0)
        var received = 0
        while journald.receive() != nil {
            received += 1
            if received == count { break }
        }
        #expect(sender.finished.wait(timeout: .now() + 10) == .success)
        #expect(sender.refused.withLock { $0 } == [])
        #expect(received == count)
    }

    /// An entry larger than a datagram may be (the socket's send buffer) goes as a sealed memfd, whole.
    @Test func anEntryTooLargeForADatagramArrivesWhole() throws {
        let journald = try JournaldStandIn(path: Self.folder() + "/socket")
        let journal = Journal(identifier: "remindd-test", socketPath: journald.path)
        let message = String(repeating: "0123456789abcdef", count: (9 << 20) / 16)
        #expect(journal.send(message, priority: .notice))
        let entry = try #require(journald.receive())
        #expect(entry.count == message.utf8.count + "MESSAGE=\nPRIORITY=5\nSYSLOG_IDENTIFIER=remindd-test\n".utf8.count)
        #expect(entry.starts(with: Array("MESSAGE=0123456789abcdef".utf8)))
        let tail = Array("0123456789abcdef\nPRIORITY=5\nSYSLOG_IDENTIFIER=remindd-test\n".utf8)
        #expect(Array(entry.suffix(tail.count)) == tail)
    }
}

/// A thread sending entries, and what became of them.
private final class Sender: Sendable {
    let refused = Mutex<[Int]>([])
    let finished = DispatchSemaphore(value: 0)
    /// The sending thread, and its folder under /proc (what /proc/thread-self is to it).
    private let identity = Mutex<(thread: pthread_t, task: String)?>(nil)

    func run(_ count: Int, _ send: (Int) -> Bool) {
        // Able to take the signal: a thread started from the test runner's threads inherits their mask, which
        // blocks it.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let task = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")).map { "/proc/" + $0 } ?? "none"  // "none": never found waiting
        identity.withLock { $0 = (pthread_self(), task) }
        for entry in 0..<count where !send(entry) { refused.withLock { $0.append(entry) } }
        finished.signal()
    }

    /// The sending thread once the kernel has it waiting for room in the socket's queue; nil after 10 s.
    func waitingForTheQueue() -> pthread_t? {
        for _ in 0..<1_000 {
            // Not started yet, or its wchan not readable yet: looked at again.
            if let (thread, task) = identity.withLock({ $0 }),
               let channel = try? String(contentsOfFile: task + "/wchan", encoding: .utf8),
               channel == "unix_wait_for_peer" {
                return thread
            }
            usleep(10_000)
        }
        return nil
    }
}
