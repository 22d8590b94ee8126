import ReminderCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's tzdata: TZif files under a directory (default `/usr/share/zoneinfo`, or `$TZDIR`).
///
/// The only place the time engine's zones come from; names are checked before touching the file system,
/// and an unknown name is an error, never a silent fallback to UTC.
public struct TimeZoneDatabase: Sendable {
    /// The directory holding the TZif files.
    public let directory: String

    public init(directory: String = "/usr/share/zoneinfo") {
        self.directory = directory
    }

    /// The database the C library would use: `$TZDIR` when set, else `/usr/share/zoneinfo`.
    public static func system(environment: [String: String]) -> TimeZoneDatabase {
        TimeZoneDatabase(directory: environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo")
    }

    /// Loads the rules of a zone by its IANA name (`Europe/Berlin`, `UTC`).
    public func rules(named name: String) throws(TimeZoneError) -> TimeZoneRules {
        guard Self.isPlausibleName(name) else { throw .unknown(name) }
        guard let bytes = Self.readFile(directory + "/" + name), bytes.starts(with: Array("TZif".utf8)) else {
            throw .unknown(name)
        }
        return try TimeZoneRules(identifier: name, tzif: bytes)
    }

    /// The system zone's name: `$TZ` (`:Europe/Berlin` or `Europe/Berlin`) when set, else the target of
    /// `/etc/localtime`, else `/etc/timezone`, else `UTC`, the C library's own default.
    public func systemZoneName(environment: [String: String], localtime: String = "/etc/localtime", timezoneFile: String = "/etc/timezone") -> String {
        if let tz = environment["TZ"], !tz.isEmpty {
            return tz.hasPrefix(":") ? String(tz.dropFirst()) : tz
        }
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink(localtime, &buffer, buffer.count - 1)
        if length > 0 {
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let parts = target.split(separator: "/", omittingEmptySubsequences: true)
            if let index = parts.lastIndex(of: "zoneinfo"), index + 1 < parts.count {
                return parts[(index + 1)...].joined(separator: "/")
            }
        }
        if let bytes = Self.readFile(timezoneFile) {
            let name = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if !name.isEmpty { return name }
        }
        return "UTC"
    }

    /// Every zone name in the database (TZif files), excluding the `posix/` and `right/` copies.
    public func allZoneNames() -> [String] {
        var names: [String] = []
        func walk(_ relative: String) {
            guard let dir = opendir(relative.isEmpty ? directory : directory + "/" + relative) else { return }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                }
                if name.hasPrefix(".") || (relative.isEmpty && ["posix", "right", "posixrules", "localtime"].contains(name)) {
                    continue
                }
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard stat(directory + "/" + path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    walk(path)
                } else if let head = Self.readFile(directory + "/" + path, limit: 4), head == Array("TZif".utf8) {
                    names.append(path)
                }
            }
        }
        walk("")
        return names.sorted()
    }

    /// Zone names are relative paths of letters, digits and `/_-+`; no `..`, no absolute paths.
    static func isPlausibleName(_ name: String) -> Bool {
        !name.isEmpty && name.count < 256 && !name.hasPrefix("/") && !name.split(separator: "/").contains("..")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/_-+".contains($0)) }
    }

    static func readFile(_ path: String, limit: Int = 1 << 20) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while result.count < limit {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, min($0.count, limit - result.count)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }
}
