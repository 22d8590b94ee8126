import Glibc
import Translation

/// The languages remindd-web answers in: English, each language with a catalog in the locale folder, and the
/// process's own (the daemon's: the same user session's `LANG`) for a browser that asks for none of them.
public struct WebLanguages: Sendable {
    let catalogs: [String: LoadedCatalog]
    let fallback: any MessageCatalog

    /// The catalogs in `folder` (`de/LC_MESSAGES/remindd.mo`...), `fallback` for the rest.
    public init(folder: String, fallback: any MessageCatalog) {
        var catalogs: [String: LoadedCatalog] = [:]
        if let directory = opendir(folder) {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name.count >= 2, name.allSatisfy({ $0.isLetter && $0.isLowercase }),
                      let catalog = LoadedCatalog(path: "\(folder)/\(name)/LC_MESSAGES/remindd.mo")
                else { continue }
                catalogs[name] = catalog
            }
        }
        (self.catalogs, self.fallback) = (catalogs, fallback)
    }

    /// The words for a browser's `Accept-Language` (`de-DE,de;q=0.9,en;q=0.8`): the first language it prefers
    /// that remindd has, else the process's own.
    public func words(for acceptLanguage: String?) -> any MessageCatalog {
        for language in Self.preferred(acceptLanguage ?? "") {
            if language == "en" { return UntranslatedCatalog() }
            if let catalog = catalogs[language] { return catalog }
        }
        return fallback
    }

    /// The primary languages of an `Accept-Language` header, most wanted first (`q=0` is "not this one").
    static func preferred(_ header: String) -> [String] {
        let ranked = header.split(separator: ",").enumerated().compactMap { position, item -> (String, Double, Int)? in
            let parts = item.split(separator: ";").map { $0.trimmingSpaces }
            guard let tag = parts.first, !tag.isEmpty else { return nil }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard quality > 0 else { return nil }
            return (String(tag.split(separator: "-").first ?? tag).lowercased(), quality, position)
        }
        return ranked.sorted { ($0.1, -$0.2) > ($1.1, -$1.2) }.map(\.0)
    }
}
