import Testing
import Translation

/// A compiled catalog checked before glibc reads it: sound ones pass, cut or lying ones are refused, whatever
/// their header claims, without reading past the end.
@Suite("Compiled catalogs")
struct CompiledCatalogTests {
    /// A revision 0 catalog of `pairs` (sorted by original, as msgfmt writes them) with a hash table of `hashSize`
    /// slots, laid out as the GNU gettext manual's "The Format of GNU MO Files" says.
    static func catalog(_ pairs: [(String, String)], hashSize: Int = 3) -> [UInt8] {
        let count = pairs.count
        let originals = 28, translations = originals + count * 8, hash = translations + count * 8
        var strings = hash + hashSize * 4
        var bytes: [UInt8] = []
        func word(_ value: Int) { bytes += withUnsafeBytes(of: UInt32(value).littleEndian, Array.init) }
        for value in [0x9504_12de, 0, count, originals, translations, hashSize, hash] { word(value) }
        var text: [UInt8] = []
        for column in [pairs.map(\.0), pairs.map(\.1)] {
            for string in column {
                word(string.utf8.count)
                word(strings)
                text += Array(string.utf8) + [0]
                strings += string.utf8.count + 1
            }
        }
        for slot in 0..<hashSize { word(slot < count ? slot + 1 : 0) }
        return bytes + text
    }

    static let sound = catalog([("", "Language: de\n"), ("Skip", "Auslassen"), ("Taken", "Genommen")])

    @Test func aSoundCatalogPasses() {
        #expect(CompiledCatalog.problem(in: Self.sound) == nil)
    }

    @Test func aCatalogCutAnywhereIsRefused() {
        for length in [0, 27, 28, 60, 100, Self.sound.count - 1] {
            #expect(CompiledCatalog.problem(in: Array(Self.sound.prefix(length))) != nil, "cut at \(length)")
        }
    }

    @Test func aHeaderThatLiesIsRefused() {
        func with(_ offset: Int, _ value: UInt32) -> [UInt8] {
            var bytes = Self.sound
            bytes.replaceSubrange(offset..<offset + 4, with: withUnsafeBytes(of: value.littleEndian, Array.init))
            return bytes
        }
        #expect(CompiledCatalog.problem(in: with(0, 0x1234_5678))?.contains("magic") == true)
        #expect(CompiledCatalog.problem(in: with(4, 7 << 16))?.contains("revision") == true)
        #expect(CompiledCatalog.problem(in: with(8, 1 << 31))?.contains("past the end") == true, "2^31 strings")
        #expect(CompiledCatalog.problem(in: with(8, UInt32.max))?.contains("past the end") == true)
        #expect(CompiledCatalog.problem(in: with(12, UInt32.max)) != nil, "a table past the end")
        #expect(CompiledCatalog.problem(in: with(20, 1 << 30))?.contains("hash table") == true)
        // A string's length one too long: it does not end with its NUL.
        #expect(CompiledCatalog.problem(in: with(28 + 8, 5))?.contains("does not end") == true)
        #expect(CompiledCatalog.problem(in: with(28 + 12, UInt32.max))?.contains("past the end") == true)
        // A hash slot naming a string the catalog does not have.
        #expect(CompiledCatalog.problem(in: with(28 + 48, 9))?.contains("hash entry") == true)
    }

    @Test func theNamesGettextTriesForALocale() {
        #expect(CompiledCatalog.names(locale: "de_DE.UTF-8", languages: nil) == ["de_DE.UTF-8", "de_DE.utf8", "de_DE", "de.UTF-8", "de.utf8", "de"])
        #expect(CompiledCatalog.names(locale: "C", languages: "de") == [], "C translates nothing, whatever LANGUAGE says")
        #expect(CompiledCatalog.names(locale: "C.UTF-8", languages: nil) == [])
        #expect(CompiledCatalog.names(locale: "fr_FR.UTF-8", languages: "es:de").prefix(2) == ["es", "de"])
        #expect(CompiledCatalog.names(locale: "ca_ES@valencia", languages: nil) == ["ca_ES@valencia", "ca_ES", "ca@valencia", "ca"])
        #expect(CompiledCatalog.languageName("de_DE.utf8") == "German" && CompiledCatalog.languageName("xx") == "'xx'")
    }
}
