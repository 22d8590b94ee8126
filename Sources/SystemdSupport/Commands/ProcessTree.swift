import Glibc

/// The processes a process started, read from `/proc` (each one's parent in its `stat`): what a process-group
/// kill misses, the children a hook moved to sessions of their own with `setsid`.
enum ProcessTree {
    /// Every descendant of `root` now (children, their children...), not `root` itself.
    static func descendants(of root: pid_t) -> [pid_t] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var children: [pid_t: [pid_t]] = [:]
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), let parent = parent(of: pid) else { continue }
            children[parent, default: []].append(pid)
        }
        var found: [pid_t] = []
        var next = [root]
        while let pid = next.popLast() {
            for child in children[pid] ?? [] where !found.contains(child) {
                found.append(child)
                next.append(child)
            }
        }
        return found
    }

    /// The parent of a process (field 4 of `/proc/PID/stat`).
    private static func parent(of pid: pid_t) -> pid_t? {
        guard let fields = statFields(of: pid), fields.count > 1 else { return nil }
        return pid_t(String(decoding: fields[1], as: UTF8.self))
    }

    /// The fields of `/proc/PID/stat` after the command name in parentheses (the first is field 3, the state),
    /// or nil when the process is gone.
    private static func statFields(of pid: pid_t) -> [ArraySlice<UInt8>]? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }  // gone meanwhile
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0, let close = bytes[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        return bytes[(close + 1)..<count].split(separator: UInt8(ascii: " "))
    }

    /// Where a process's environment lies in its memory (fields 50 and 51 of `/proc/PID/stat`), or nil when it has
    /// none to show (gone, a zombie, a kernel thread). The end is 0 while the process is between two programs
    /// (in `execve`, its new memory is in place and its environment not yet laid out); start and end are equal
    /// for a program started without an environment.
    private static func environmentArea(of pid: pid_t) -> (start: UInt64, end: UInt64)? {
        guard let fields = statFields(of: pid), fields.count > 48, let state = fields[0].first,
            state != UInt8(ascii: "Z"), state != UInt8(ascii: "X"),
            let flags = UInt(String(decoding: fields[6], as: UTF8.self)), flags & kernelThreadFlag == 0,
            let start = UInt64(String(decoding: fields[47], as: UTF8.self)), let end = UInt64(String(decoding: fields[48], as: UTF8.self))
        else { return nil }
        return (start, end)
    }

    /// `PF_KTHREAD`, in field 9 (flags) of a kernel thread's `stat`.
    private static let kernelThreadFlag: UInt = 0x0020_0000

    /// The environment variable that marks a command's processes (each command its own value): inherited by
    /// what it starts, so that what outlives it is found when its parent is gone.
    static let markName = "REMINDD_COMMAND"

    /// The processes whose environment holds `mark` (`NAME=value`), this user's (others' cannot be read).
    static func marked(_ mark: String) -> [pid_t] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        let wanted = [0] + Array(mark.utf8) + [0]
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var found: [pid_t] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let pid = pid_t(name), pid != getpid() else { continue }
            // NUL-separated entries: one NUL put in front, so that the first entry is found as the others are.
            let count = readSettledEnvironment(of: pid, into: &buffer)
            if count > 0, buffer[..<(count + 1)].firstRange(of: wanted) != nil { found.append(pid) }
        }
        return found
    }

    /// Reads a process's environment as ``readEnvironment(of:into:)`` does, and again while what was read may not be
    /// what the process has (up to 2 s): an environment reads as empty while the process is between two programs,
    /// and when the read raced an `execve` (`/proc/PID/environ` reads the memory the process had when it was opened,
    /// gone once the new program runs). A hook's child caught so read as unmarked and outlived the hook. Empty is
    /// believed only when two looks in a row read nothing and find the same environment area of no length: what a
    /// program started without an environment has (a look in the instant `execve` lays the area out can see it
    /// empty once, not twice).
    private static func readSettledEnvironment(of pid: pid_t, into buffer: inout [UInt8]) -> Int {
        var emptyArea: (start: UInt64, end: UInt64)?
        for _ in 0..<2000 {
            guard let count = readEnvironment(of: pid, into: &buffer) else { return 0 }
            if count > 0 { return count }
            guard let area = environmentArea(of: pid) else { return 0 }
            if area.end == 0 {
                // Between two programs: the new one's environment comes in a moment.
                emptyArea = nil
                var millisecond = timespec(tv_sec: 0, tv_nsec: 1_000_000)
                nanosleep(&millisecond, nil)
            } else if area.start == area.end {
                if let seen = emptyArea, seen == area { return 0 }
                emptyArea = area
            } else {
                emptyArea = nil  // the read raced an `execve`: read the new program's
            }
        }
        return 0
    }

    /// Reads a process's environment (`/proc/PID/environ`, as much as fits) into `buffer` from its second byte,
    /// the first a NUL, with a NUL after it. - Returns: how many bytes were read (0: none), or nil when it
    /// cannot be read (another user's process, or gone).
    private static func readEnvironment(of pid: pid_t, into buffer: inout [UInt8]) -> Int? {
        let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        buffer[0] = 0
        var total = 0
        while total < buffer.count - 2 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + 1 + total, $0.count - 2 - total) }
            guard count > 0 else { break }
            total += count
        }
        buffer[total + 1] = 0
        return total
    }

    /// Kills a process's group and every descendant of it, those in sessions of their own too.
    static func killAll(from root: pid_t) {
        let descendants = descendants(of: root)
        kill(-root, SIGKILL)
        for pid in descendants { kill(pid, SIGKILL) }
    }

    /// Kills every process that carries `mark` (what a command left running after it ended), with their groups
    /// and descendants.
    static func killMarked(_ mark: String) {
        for orphan in marked(mark) { killAll(from: orphan) }
    }
}
