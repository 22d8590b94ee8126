/// remindd's version: what `--version` prints for both binaries, what `GetInfo` and `Status` report, and the
/// Debian package's version. It is written in one place, the first line of `debian/changelog`
/// (`remindd (0.2.0) unstable; urgency=medium`), which the build embeds (`Resources/changelog` links to it).
public enum RemindVersion {
    public static let current: String = version(inChangelog: PackageResources.changelog)

    /// The version in a Debian changelog's first line: what is between its first parentheses.
    static func version(inChangelog bytes: [UInt8]) -> String {
        let firstLine = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        guard let open = firstLine.firstIndex(of: "("), let close = firstLine.firstIndex(of: ")"), open < close else {
            preconditionFailure("debian/changelog's first line names no version: \(firstLine)")
        }
        return String(firstLine[firstLine.index(after: open)..<close])
    }
}
