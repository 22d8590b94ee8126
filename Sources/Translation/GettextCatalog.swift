import CGettext
import Glibc
import ReminderCore

/// The messages in the environment's language through glibc's gettext: catalogs `remindd.mo` in
/// `LOCALEDIR/LANG/LC_MESSAGES/`, and weekday and month names from the locale's LC_TIME (`nl_langinfo`). A
/// language without a catalog, or a locale that is not installed, is English (the messages as written).
public struct GettextCatalog: MessageCatalog {
    /// The locale messages are in (`de_DE.UTF-8`; `C` when the environment's is not installed).
    public let locale: String
    /// The language of the catalog gettext found for that locale (`de`), or `en`: none was found (a language
    /// remindd has no translation for, or `C`), so the words are English.
    public let language: String
    /// A damaged catalog that was refused, in one line to say once ("The German catalog at PATH is damaged
    /// (...); messages stay in English"); nil when none was.
    public let refusal: String?
    /// The locale's decimal separator when its language is translated; `.` when the words are English.
    public let decimalSeparator: String

    private init(locale: String, language: String, refusal: String?) {
        (self.locale, self.language, self.refusal) = (locale, language, refusal)
        var separator = [CChar](repeating: 0, count: 8)
        remindd_decimal_separator(&separator, UInt(separator.count))
        decimalSeparator = language == "en" ? "." : String(decoding: separator.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Sets the process's locale from its environment (messages, dates and characters; numbers stay C) and
    /// binds remindd's catalogs: call once, first thing in `main`, before any thread starts.
    /// `executable`: the program's own path, which says where its catalogs are (``localeFolder(executable:)``).
    /// A catalog gettext would read that is damaged is refused (``CompiledCatalog``): the messages stay in
    /// English, and ``refusal`` says why.
    public static func start(executable: String) -> GettextCatalog {
        let locale = String(cString: remindd_set_locale())
        let folder = localeFolder(executable: executable)
        let languages = getenv("LANGUAGE").map { String(cString: $0) }
        let refusal = CompiledCatalog.names(locale: locale, languages: languages).lazy.compactMap { name -> String? in
            let path = "\(folder)/\(name)/LC_MESSAGES/remindd.mo"
            return problem(ofCatalogAt: path).map {
                "The \(CompiledCatalog.languageName(name)) catalog at \(path) is damaged (\($0)); messages stay in English"
            }
        }.first
        // Refused: bound to a folder that holds no catalog, so gettext reads none and every message is English.
        remindd_bind_catalogs(refusal == nil ? folder : "/dev/null")
        // The empty message is the catalog's header, when a catalog was found.
        let header = String(cString: remindd_translate("", nil, 1))
        return GettextCatalog(locale: locale, language: language(ofHeader: header), refusal: refusal)
    }

    /// Why the catalog at `path` must not be read; nil when it is sound or there is none.
    static func problem(ofCatalogAt path: String) -> String? {
        if case .failure(let problem) = contents(ofCatalogAt: path) { return problem.reason }
        return nil
    }

    /// Why a catalog must not be read.
    public struct CatalogProblem: Error {
        public let reason: String
    }

    /// The bytes of the sound catalog at `path` (nil: there is none), or why it must not be read. It is opened
    /// without blocking (a FIFO put in its place would hold the program) and read only when it is a regular file
    /// of reasonable size.
    public static func contents(ofCatalogAt path: String) -> Result<[UInt8]?, CatalogProblem> {
        let file = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .success(nil) : .failure(CatalogProblem(reason: String(cString: strerror(errno)))) }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { return .failure(CatalogProblem(reason: String(cString: strerror(errno)))) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(CatalogProblem(reason: "not a regular file")) }
        guard status.st_size <= 64 << 20 else { return .failure(CatalogProblem(reason: "\(status.st_size) bytes, more than any catalog")) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < bytes.count {
            let got = bytes[filled...].withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return .failure(CatalogProblem(reason: "it could not be read whole")) }
            filled += got
        }
        return CompiledCatalog.problem(in: bytes).map { .failure(CatalogProblem(reason: $0)) } ?? .success(bytes)
    }

    /// `de` from a catalog's header (its `Language: de` line); `en` for no header or no language.
    public static func language(ofHeader header: String) -> String {
        let line = header.split(separator: "\n").first { $0.hasPrefix("Language:") }
        let language = line.map { String($0.dropFirst("Language:".count).filter { !$0.isWhitespace }) } ?? ""
        return language.isEmpty ? "en" : language
    }

    /// Where the catalogs of a program at `executable` are: `.build/locale` in a checkout (a program run from its
    /// build folder: `make` compiles `po/` there), else `../share/locale` beside its `bin` (`/usr/bin` ->
    /// `/usr/share/locale`, `~/.local/bin` -> `~/.local/share/locale`).
    public static func localeFolder(executable: String) -> String {
        // By byte (split and joined were 6% of `remindctl next`'s instructions).
        let slash = UInt8(ascii: "/")
        let folder = executable[..<(executable.utf8.lastIndex(of: slash) ?? executable.startIndex)]
        if let build = folder.utf8.split(separator: slash, omittingEmptySubsequences: false).last(where: { $0.elementsEqual(".build".utf8) }) {
            return String(folder[..<build.endIndex]) + "/locale"
        }
        return String(folder[..<(folder.utf8.lastIndex(of: slash) ?? folder.startIndex)]) + "/share/locale"
    }

    /// The running program's path: the kernel's `/proc/self/exe` (argv[0] is only a name when a shell found the
    /// program in PATH), or argv[0] where /proc is not mounted.
    /// glibc's `readlink` (FileManager's, its first use in a process, was 4% of `remindctl next`).
    public static func runningExecutable() -> String {
        var path = [CChar](repeating: 0, count: Int(PATH_MAX))
        let length = readlink("/proc/self/exe", &path, path.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: path[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func template(_ message: Message, count: Int) -> String {
        // gettext hands back its argument when it has no translation: read it before the buffer goes.
        message.text.withCString { text in
            guard let plural = message.plural else { return String(cString: remindd_translate(text, nil, 1)) }
            return plural.withCString { String(cString: remindd_translate(text, $0, UInt(max(0, count)))) }
        }
    }

    public func name(of weekday: Weekday, abbreviated: Bool) -> String {
        String(cString: remindd_weekday_name(Int32(weekday.rawValue - 1), abbreviated ? 1 : 0))
    }

    public func name(ofMonth month: Int, abbreviated: Bool) -> String {
        String(cString: remindd_month_name(Int32(month), abbreviated ? 1 : 0))
    }
}
