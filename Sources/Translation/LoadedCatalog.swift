import ReminderCore

/// A language's catalog read whole from its `remindd.mo`, for a program that speaks several languages at once
/// (remindd-web answers each browser in its own: gettext serves one language per process). Weekday and month
/// names and the decimal separator are English's (the pages that show them name dates as ISO 8601).
public struct LoadedCatalog: MessageCatalog {
    public let language: String
    private let translations: [String: [String]]
    /// Which plural form `count` takes: the catalog's `Plural-Forms` for the languages remindd has (`n != 1`,
    /// `n > 1`); another rule counts as `n != 1`.
    private let onlyOneIsSingular: Bool

    /// The catalog at `path`; nil when there is none or it is damaged (its program then speaks English there).
    public init?(path: String) {
        guard case .success(let bytes?) = GettextCatalog.contents(ofCatalogAt: path) else { return nil }
        var translations: [String: [String]] = [:]
        for (original, translated) in CompiledCatalog.entries(in: bytes) {
            translations[original] = translated.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        }
        let header = translations[""]?.first ?? ""
        language = GettextCatalog.language(ofHeader: header)
        onlyOneIsSingular = !header.contains("plural=(n > 1)") && !header.contains("plural=n > 1") && !header.contains("plural=(n>1)")
        self.translations = translations
    }

    public func template(_ message: Message, count: Int) -> String {
        let key = message.plural.map { message.text + "\0" + $0 } ?? message.text
        let singular = onlyOneIsSingular ? count == 1 : count <= 1
        guard let forms = translations[key], let chosen = forms[safe: singular ? 0 : 1] ?? forms.first, !chosen.isEmpty else {
            return UntranslatedCatalog().template(message, count: count)
        }
        return chosen
    }

    public func name(of weekday: Weekday, abbreviated: Bool) -> String {
        UntranslatedCatalog().name(of: weekday, abbreviated: abbreviated)
    }

    public func name(ofMonth month: Int, abbreviated: Bool) -> String {
        UntranslatedCatalog().name(ofMonth: month, abbreviated: abbreviated)
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
