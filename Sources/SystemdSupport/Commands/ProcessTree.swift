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

    /// Kills a process's group and every descendant of it, those in sessions of their own too.
    static func killAll(from root: pid_t) {
        let descendants = descendants(of: root)
        kill(-root, SIGKILL)
        for pid in descendants { kill(pid, SIGKILL) }
    }
}
