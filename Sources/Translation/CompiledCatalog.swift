/// A compiled GNU message catalog (`remindd.mo`) checked the way a careful loader checks one, before glibc
/// maps it: glibc's own loader trusts the counts and offsets it reads, so a catalog cut short (an interrupted
/// copy, a full disk during an install) or one whose header lies crashed remindd in `_nl_find_msg` at the first
/// translated message, and every remindctl command with it.
///
/// The format (GNU gettext manual, "The Format of GNU MO Files"): a magic number in either byte order, a
/// revision, the number of strings N, the offsets of the originals' and the translations' tables (N entries of
/// length and offset each), and the size and offset of a hash table. A catalog is sound when every table and
/// every string lies within the file, each string ends with a NUL at its length, and every hash entry names a
/// string (or none).
public enum CompiledCatalog {
    /// Why `bytes` is not a catalog glibc can read safely, in a few words; nil when it is sound.
    public static func problem(in bytes: [UInt8]) -> String? {
        guard bytes.count >= 28 else { return "\(bytes.count) bytes, shorter than a catalog's header" }
        let magic = word(bytes, 0, bigEndian: false)
        let bigEndian: Bool
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: return "not a message catalog (no .mo magic number)"
        }
        let read = { (offset: Int) in Int(word(bytes, offset, bigEndian: bigEndian)) }
        let revision = read(4)
        guard revision >> 16 <= 1 else { return "revision \(revision >> 16), which no gettext reads" }
        if revision >> 16 == 1 {
            // Revision 1 may carry system-dependent strings, which remindd's catalogs never have.
            guard bytes.count >= 48 else { return "a revision 1 header cut short" }
            guard read(36) == 0 else { return "system-dependent strings, which remindd's catalogs never have" }
        }
        let count = read(8)
        let tables = [("original", read(12)), ("translated", read(16))]
        for (name, offset) in tables {
            guard fits(offset, count, 8, in: bytes.count) else { return "its \(name) strings' table of \(count) entries lies past the end of the file" }
            for index in 0..<count {
                let (length, start) = (read(offset + index * 8), read(offset + index * 8 + 4))
                guard fits(start, length + 1, 1, in: bytes.count) else { return "\(name) string \(index) lies past the end of the file" }
                guard bytes[start + length] == 0 else { return "\(name) string \(index) does not end where its length says" }
            }
        }
        let (hashSize, hashOffset) = (read(20), read(24))
        guard hashSize == 0 || fits(hashOffset, hashSize, 4, in: bytes.count) else { return "its hash table lies past the end of the file" }
        for index in 0..<hashSize where read(hashOffset + index * 4) > count {
            return "hash entry \(index) names a string it does not have"
        }
        return nil
    }

    /// The originals and translations of a catalog that ``problem(in:)`` found sound: a plural's original is its
    /// singular and plural joined by a NUL, its translation each form joined by NULs.
    public static func entries(in bytes: [UInt8]) -> [(original: String, translated: String)] {
        let bigEndian = word(bytes, 0, bigEndian: false) != 0x9504_12de
        let read = { (offset: Int) in Int(word(bytes, offset, bigEndian: bigEndian)) }
        let (count, originals, translations) = (read(8), read(12), read(16))
        func string(_ table: Int, _ index: Int) -> String {
            let (length, start) = (read(table + index * 8), read(table + index * 8 + 4))
            return String(decoding: bytes[start..<start + length], as: UTF8.self)
        }
        return (0..<count).map { (string(originals, $0), string(translations, $0)) }
    }

    /// Whether `count` items of `size` bytes from `offset` lie within a file of `length` bytes (without
    /// overflow, whatever the header claims).
    private static func fits(_ offset: Int, _ count: Int, _ size: Int, in length: Int) -> Bool {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
        return !overflow && offset >= 0 && offset <= length && bytes <= length - offset
    }

    private static func word(_ bytes: [UInt8], _ offset: Int, bigEndian: Bool) -> UInt32 {
        let four = bytes[offset..<offset + 4].map(UInt32.init)
        return bigEndian
            ? four[0] << 24 | four[1] << 16 | four[2] << 8 | four[3]
            : four[3] << 24 | four[2] << 16 | four[1] << 8 | four[0]
    }

    /// The catalog names gettext tries for a locale, most specific first, as glibc explodes them
    /// (`language[_territory][.codeset][@modifier]`, the codeset also normalised: `UTF-8` -> `utf8`): for
    /// `de_DE.UTF-8`, `de_DE.UTF-8`, `de_DE.utf8`, `de_DE`, `de.UTF-8`, `de.utf8`, `de`. `languages` is the
    /// `LANGUAGE` variable, which gettext reads first for any locale but C.
    public static func names(locale: String, languages: String?) -> [String] {
        guard locale != "C", locale != "POSIX", !locale.hasPrefix("C.") else { return [] }
        let wanted = (languages?.isEmpty == false ? languages! : locale).split(separator: ":").map(String.init)
        var names: [String] = []
        for name in wanted {
            var rest = Substring(name)
            var modifier = ""
            if let at = rest.firstIndex(of: "@") { (modifier, rest) = (String(rest[at...]), rest[..<at]) }
            var codesets = [""]
            if let dot = rest.firstIndex(of: ".") {
                let codeset = String(rest[rest.index(after: dot)...])
                let normal = codeset.lowercased().filter { $0.isLetter || $0.isNumber }
                codesets = ["." + codeset, "." + (normal.allSatisfy(\.isNumber) ? "iso" + normal : normal), ""]
                rest = rest[..<dot]
            }
            var territories = [""]
            if let underscore = rest.firstIndex(of: "_") {
                territories = [String(rest[underscore...]), ""]
                rest = rest[..<underscore]
            }
            for territory in territories {
                for codeset in codesets {
                    for withModifier in modifier.isEmpty ? [""] : [modifier, ""] {
                        let candidate = String(rest) + territory + codeset + withModifier
                        if !names.contains(candidate) { names.append(candidate) }
                    }
                }
            }
        }
        return names
    }

    /// The English name of a catalog's language, for the one line that says it is damaged (`German` for
    /// `de_DE.utf8`; the name itself for a language remindd has no name for).
    public static func languageName(_ name: String) -> String {
        let language = String(name.prefix { $0.isLetter })
        return ["de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "nl": "Dutch", "pt": "Portuguese", "en": "English"][language] ?? "'\(name)'"
    }
}
