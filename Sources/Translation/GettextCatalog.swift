import CGettext
import FoundationEssentials
import ReminderCore

/// The messages in the environment's language through glibc's gettext: catalogs `remindd.mo` in
/// `LOCALEDIR/LANG/LC_MESSAGES/`, and weekday and month names from the locale's LC_TIME (`nl_langinfo`). A
/// language without a catalog, or a locale that is not installed, is English (the messages as written).
public struct GettextCatalog: MessageCatalog {
    /// The locale messages are in (`de_DE.UTF-8`; `C` when the environment's is not installed).
    public let locale: String

    private init(locale: String) {
        self.locale = locale
    }

    /// Sets the process's locale from its environment (messages, dates and characters; numbers stay C) and
    /// binds remindd's catalogs: call once, first thing in `main`, before any thread starts.
    /// `executable`: the program's own path, which says where its catalogs are (``localeFolder(executable:)``).
    public static func start(executable: String) -> GettextCatalog {
        let folder = localeFolder(executable: executable)
        let locale = folder.withCString { remindd_start_translation($0) }
        return GettextCatalog(locale: String(cString: locale))
    }

    /// Where the catalogs of a program at `executable` are: `.build/locale` in a checkout (a program run from its
    /// build folder: `make` compiles `po/` there), else `../share/locale` beside its `bin` (`/usr/bin` ->
    /// `/usr/share/locale`, `~/.local/bin` -> `~/.local/share/locale`).
    public static func localeFolder(executable: String) -> String {
        var components = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        if let build = components.lastIndex(of: ".build") {
            return components[...build].joined(separator: "/") + "/locale"
        }
        components = components.dropLast()
        return components.joined(separator: "/") + "/share/locale"
    }

    /// The running program's path: the kernel's `/proc/self/exe` (argv[0] is only a name when a shell found the
    /// program in PATH), or argv[0] where /proc is not mounted.
    public static func runningExecutable() -> String {
        do {
            return try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        } catch {
            return CommandLine.arguments[0]
        }
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
