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

    /// The parent of a process (field 4 of `/proc/PID/stat`, after the command name in parentheses).
    private static func parent(of pid: pid_t) -> pid_t? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }  // gone meanwhile
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0, let close = bytes[..<count].lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)..<count].split(separator: UInt8(ascii: " "))
        return fields.count > 1 ? pid_t(String(decoding: fields[1], as: UTF8.self)) : nil
    }

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
            let count = readEnvironment(of: pid, into: &buffer)
            if count > 0, buffer[..<(count + 1)].firstRange(of: wanted) != nil { found.append(pid) }
        }
        return found
    }

    /// Reads a process's environment (`/proc/PID/environ`, as much as fits) into `buffer` from its second byte,
    /// the first a NUL, with a NUL after it. - Returns: how many bytes were read (0: none, or not readable).
    private static func readEnvironment(of pid: pid_t, into buffer: inout [UInt8]) -> Int {
        let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
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
