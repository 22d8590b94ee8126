import Glibc

// Files, standard streams and a child process through glibc, so that remindctl needs FoundationEssentials only
// (Foundation's FileHandle and Process come with ICU: 39 MB of data and most of a short command's start-up).

/// An open file descriptor read part by part; closed when it goes (standard input is left open).
final class FileReader {
    private let descriptor: Int32
    private let owned: Bool

    /// Standard input.
    static var standardInput: FileReader { FileReader(descriptor: STDIN_FILENO, owned: false) }

    private init(descriptor: Int32, owned: Bool) { (self.descriptor, self.owned) = (descriptor, owned) }

    /// Opens `path` for reading. - Throws: `CLIError` with the system's reason.
    convenience init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIError("cannot read \(path): \(String(cString: strerror(errno)))") }
        self.init(descriptor: descriptor, owned: true)
    }

    deinit { if owned { close(descriptor) } }

    /// Up to `count` bytes, fewer only at the end (empty there). - Throws: `CLIError` naming `name`.
    func read(upTo count: Int, name: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw CLIError("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes.prefix(filled))
    }
}

/// Writes all of `bytes` to `descriptor` (standard output, a pipe). - Throws: `CLIError` on a failed write.
func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) throws {
    let array = Array(bytes)
    var written = 0
    while written < array.count {
        let done = array.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, array.count - written) }
        if done < 0 {
            if errno == EINTR { continue }
            throw CLIError("cannot write: \(String(cString: strerror(errno)))")
        }
        written += done
    }
}

/// The user's home folder: `HOME`, else the password database's.
func homeDirectory() -> String {
    if let home = getenv("HOME"), home.pointee != 0 { return String(cString: home) }
    guard let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir else { return "/" }
    return String(cString: folder)
}

/// Runs `tool` with `arguments`, standard input and output on /dev/null, and returns its exit status and the
/// first line it wrote to standard error (what went wrong, when it failed).
func runTool(_ tool: String, _ arguments: [String]) throws -> (status: Int32, firstErrorLine: String) {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw CLIError("cannot run \(tool): \(String(cString: strerror(errno)))") }
    // Not inherited by anything else this process starts (the child gets the write end as its stderr only).
    for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO)
    let argv = ([tool] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var child = pid_t()
    let spawned = posix_spawn(&child, tool, &actions, nil, argv, environ)
    close(pipe[1])
    defer { close(pipe[0]) }
    guard spawned == 0 else { throw CLIError("cannot run \(tool): \(String(cString: strerror(spawned)))") }
    var said: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let got = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
        if got < 0, errno == EINTR { continue }
        if got <= 0 { break }
        if said.count < 65_536 { said += buffer.prefix(got) }
    }
    var status: Int32 = 0
    while waitpid(child, &status, 0) < 0, errno == EINTR {}
    let exit = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    let line = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    return (exit, line)
}
