import Glibc

/// Where remindd-web listens and how a browser logs in to it: a one-time token that `remindctl ui` writes to a
/// 0600 file in the user's runtime folder and puts in the login URL, and that remindd-web reads once, compares and
/// deletes. TCP on 127.0.0.1 carries no peer credentials: the file's mode is what keeps other local users out.
public struct WebLogin: Sendable {
    /// The port when neither `--port` nor `REMINDD_WEB_PORT` says another (no common service uses it).
    public static let defaultPort = 47140

    /// `$XDG_RUNTIME_DIR/remindd-web` (else `/tmp/remindd-web-UID`), 0700.
    public let folder: String
    public let port: Int

    public init(environment: [String: String], uid: UInt32, port: Int? = nil) {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            folder = runtime + "/remindd-web"
        } else {
            folder = "/tmp/remindd-web-\(uid)"
        }
        self.port = port ?? environment["REMINDD_WEB_PORT"].flatMap { Int($0) }.flatMap { (1...65535).contains($0) ? $0 : nil } ?? Self.defaultPort
    }

    /// The token file.
    public var tokenFile: String { folder + "/login-token" }

    /// The URL that logs in with `token`.
    public func loginURL(token: String) -> String { "http://127.0.0.1:\(port)/login?token=\(token)" }

    /// Why a login token could not be written or read.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes a new token (replacing one not used yet) and returns it: 32 random bytes in hex.
    public func issueToken() throws(Failure) -> String {
        let token = WebTokens.random()
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw failure("cannot make \(folder)") }
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid() else {
            throw Failure(description: "\(folder) is not a folder of this user's: remove it and try again")
        }
        let temporary = tokenFile + ".new"
        unlink(temporary)
        let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard file >= 0 else { throw failure("cannot write \(temporary)") }
        let bytes = Array(token.utf8)
        let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
        guard written == bytes.count, rename(temporary, tokenFile) == 0 else {
            unlink(temporary)
            throw failure("cannot write \(tokenFile)")
        }
        return token
    }

    /// Whether `presented` is the token waiting in the file; the file is deleted either way when it held one, so a
    /// token is used at most once (a wrong guess also spends it: the next `remindctl ui` makes a new one).
    public func consumeToken(_ presented: String) -> Bool {
        let file = open(tokenFile, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard file >= 0 else { return false }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == getuid(), status.st_mode & 0o077 == 0,
              status.st_size == 64
        else { return false }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, 64) }
        unlink(tokenFile)
        return count == 64 && WebTokens.same(String(decoding: bytes, as: UTF8.self), presented)
    }

    private func failure(_ what: String) -> Failure {
        Failure(description: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// Random tokens and their comparison.
public enum WebTokens {
    /// 32 random bytes in hex.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// Compares in a time that does not depend on where the two differ.
    public static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

/// The process's environment, read without Foundation.
public enum ProcessEnvironment {
    /// The environment variables, as `ProcessInfo` would give them.
    public static func variables() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {  // by byte: by Character was 5,000 instructions each
                result[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
