import Glibc
import ReminderCore
import ReminderScheduling
import Synchronization
import SystemdSupport
import Translation

/// Plays a sound when an occurrence is announced (fired, caught up, snoozed, repeated: a repeat is the nag):
/// the reminder's `--sound`, or the default of its kind (a dose: `dose-sound`, `alarm-clock-elapsed`; the rest:
/// `reminder-sound`, `message-new-instant`), through the user's sound server with the first player found at start
/// (``SoundPlayer``), run as hooks are (a transient unit of the user manager, outside the daemon's sandbox); then,
/// for a reminder that is spoken (`--speak`, config.toml's `speak`), says it through speech-dispatcher
/// (``Speaker``): "Time for Metformin, 500 milligrams."
///
/// During quiet hours a reminder they quiet plays and says nothing (``FiringEvent/quiet``). Announcing never
/// waits for a sound. One announcement is heard at a time: a burst of firings is one sound, not 10,000, and
/// one sentence that names the first three spoken and counts the rest ("; and 9,997 more"). A sound or speech that
/// cannot be played (no player, a name the sound theme lacks, no speech-dispatcher, a player that fails) is said
/// once in the journal until one plays again; after a player failed, no sound is tried for a minute.
public final class SoundAnnouncer: Announcer {
    /// The sounds of reminders that do not choose their own (config.toml's `dose-sound` and `reminder-sound`).
    /// And who is spoken to (`speak`).
    public struct Defaults: Sendable, Hashable {
        public var dose: Sound
        public var reminder: Sound
        public var speak: SpeakChoice

        public init(dose: Sound = .named("alarm-clock-elapsed"), reminder: Sound = .named("message-new-instant"), speak: SpeakChoice = .none) {
            (self.dose, self.reminder, self.speak) = (dose, reminder, speak)
        }

        /// The sound an announcement of a reminder plays: its own, else its kind's.
        public func sound(for delivery: Delivery) -> Sound {
            delivery.notification.sound ?? (delivery.givesDose ? dose : reminder)
        }

        /// Whether an announcement of a reminder is said aloud: its own `--speak` or `--no-speak`, else `speak`.
        public func speaks(_ delivery: Delivery) -> Bool {
            if let chosen = delivery.notification.speak { return chosen }
            switch speak {
            case .all: return true
            case .doses: return delivery.givesDose
            case .none: return false
            }
        }
    }

    /// How long a sound may play before it is stopped.
    static let timeLimitMilliseconds: Int32 = 30_000

    /// After a sound could not be played, how long no other is tried (a burst of firings without a sound server
    /// would start a player for each).
    static let retrySeconds: Int64 = 60

    /// How long a sentence may take before it is stopped.
    static let speechLimitMilliseconds: Int32 = 60_000

    /// The keys of what is said once of speech (kept when a sound plays).
    private static let speechReports: Set = ["speaker", "speech"]

    /// What is heard now.
    private enum Phase {
        case idle, sounding, speaking
    }

    private struct State {
        var defaults: Defaults
        var phase = Phase.idle
        /// The firings to say once the sound ends (the first ``Speaker/named``), and how many more.
        var toSay: [DueFiring] = []
        var moreToSay = 0
        /// When the sound playing now was asked for (the firing's time).
        var started: Instant?
        /// No sound is tried before this (the last one failed).
        var silentUntil: Instant?
        /// What failed and was said, until a sound plays again.
        var reported: Set<String> = []
    }

    private let player: SoundPlayer?
    private let speaker: Speaker?
    private let commands: any CommandRunner
    private let report: @Sendable (DaemonMessage) -> Void
    /// The spoken words' language (the daemon's; the speaker is asked for the same language).
    private let words: any MessageCatalog
    private let state: Mutex<State>

    /// - Parameters:
    ///   - player: what plays a sound (nil: none was found, said at the first sound wanted).
    ///   - speaker: what says an announcement (nil: speech-dispatcher is not installed, said at the first wanted).
    ///   - words: the language announcements are said in.
    ///   - commands: what runs the player.
    ///   - report: where a sound that cannot be played is said (the journal).
    public init(
        player: SoundPlayer?, speaker: Speaker? = nil, defaults: Defaults, words: any MessageCatalog, commands: any CommandRunner,
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.player = player
        self.words = words
        self.speaker = speaker
        self.commands = commands
        self.report = report
        state = Mutex(State(defaults: defaults))
    }

    /// Whether remindd plays the sounds itself (a notification then asks the server not to play its own).
    public var playsSounds: Bool { player != nil }

    /// Applies reloaded defaults.
    public func setDefaults(_ defaults: Defaults) {
        state.withLock { $0.defaults = defaults }
    }

    public func announce(_ event: DaemonEvent) {
        guard case .firing(let firing) = event, firing.kind.reachesThePerson, !firing.quiet else { return }
        let delivery = firing.firing.reminder.delivery
        let defaults = state.withLock { $0.defaults }
        let (sound, speaks) = (defaults.sound(for: delivery), defaults.speaks(delivery))
        guard sound != .none || speaks else { return }
        // One at a time, asked first: in a burst of 10,000 the others cost a lock each, not a theme lookup; while
        // the sound plays, what is to be said joins the sentence after it.
        let start = state.withLock { state -> Bool in
            switch state.phase {
            case .sounding:
                if speaks {
                    if state.toSay.count < Speaker.named { state.toSay.append(firing.firing) } else { state.moreToSay += 1 }
                }
                return false
            case .speaking:
                return false
            case .idle:
                (state.phase, state.started, state.toSay, state.moreToSay) = (.sounding, firing.handledAt, speaks ? [firing.firing] : [], 0)
                return true
            }
        }
        guard start else { return }
        play(sound, for: firing)
    }

    /// Plays the sound, then says what is to be said.
    private func play(_ sound: Sound, for firing: FiringEvent) {
        guard sound != .none else { return speak() }
        guard let player else {
            sayOnce("player", "No sound is played: none of pw-play (pipewire-bin), paplay (pulseaudio-utils) or canberra-gtk-play (gnome-session-canberra) is installed; every reminder is still in the journal and on the desktop")
            return speak()
        }
        guard state.withLock({ state in state.silentUntil.map { firing.handledAt >= $0 } ?? true }) else { return speak() }
        guard let arguments = player.arguments(for: sound) else {
            sayOnce("name \(sound.text)", "The sound '\(sound.text)' is not in the sound theme (install sound-theme-freedesktop, or give --sound a file): the announcement of \(firing.firing.reminder.name) is silent")
            return speak()
        }
        let command = UserCommand(
            arguments: arguments, environment: player.environment, purpose: "sound for \(firing.firing.reminder.name)",
            timeLimitMilliseconds: Self.timeLimitMilliseconds)
        commands.run(command) { outcome in
            self.finished(outcome, playing: sound)
            self.speak()
        }
    }

    private func finished(_ outcome: CommandOutcome, playing sound: Sound) {
        let played: Bool
        switch outcome {
        case .exited(0), .killedAtTimeLimit, .stoppedWithTheDaemon: played = true
        default: played = false
        }
        state.withLock { state in
            if played { state.reported = state.reported.filter { Self.speechReports.contains($0) } }  // a missing speech-dispatcher stays said
            state.silentUntil = played ? nil : state.started?.adding(seconds: Self.retrySeconds)
        }
        if !played { sayOnce("play", "A sound could not be played (\(sound.text): \(outcome)); is the sound server running? Every reminder is still in the journal") }
    }

    /// Says what the sound was for, if anything is to be said; then nothing is heard.
    private func speak() {
        let (words, wanted) = state.withLock { state -> (String?, Bool) in
            let wanted = !state.toSay.isEmpty
            defer { (state.toSay, state.moreToSay) = ([], 0) }
            guard wanted, speaker != nil else {
                state.phase = .idle
                return (nil, wanted)
            }
            state.phase = .speaking
            return (Speaker.words(for: state.toSay, more: state.moreToSay, in: self.words), wanted)
        }
        guard let speaker, let words else {
            if wanted { sayOnce("speaker", "Nothing is said aloud: speech-dispatcher is not installed (apt install speech-dispatcher espeak-ng); every reminder is still in the journal") }
            return
        }
        let command = UserCommand(
            arguments: speaker.arguments(saying: words), environment: speaker.environment, purpose: "speech", timeLimitMilliseconds: Self.speechLimitMilliseconds)
        commands.run(command) { outcome in
            self.state.withLock { $0.phase = .idle }
            switch outcome {
            case .exited(0), .killedAtTimeLimit, .stoppedWithTheDaemon: self.state.withLock { _ = $0.reported.remove("speech") }
            default: self.sayOnce("speech", "An announcement could not be said aloud (\(outcome)); is speech-dispatcher working (spd-say test)? Every reminder is still in the journal")
            }
        }
    }

    private func sayOnce(_ key: String, _ text: String) {
        guard state.withLock({ $0.reported.insert(key).inserted }) else { return }
        report(DaemonMessage(.warning, text))
    }
}

/// A program that plays a sound file through the user's sound server: the first of PipeWire's `pw-play`,
/// PulseAudio's `paplay` and libcanberra's `canberra-gtk-play` found in `PATH`. A sound theme's name is found
/// as the freedesktop Sound Theme Specification says (`sounds/freedesktop/stereo/NAME.oga` under
/// `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`); `canberra-gtk-play` looks a name up itself.
public struct SoundPlayer: Sendable, Hashable {
    /// The player's absolute path.
    public let program: String
    /// The folders sound themes are looked up in, in order.
    public let themeFolders: [String]
    /// What the player's environment adds: the daemon's `PULSE_SERVER` and `PIPEWIRE_REMOTE` when set (a
    /// transient unit has the user manager's environment, not the daemon's).
    public let environment: [String]

    public static let programs = ["pw-play", "paplay", "canberra-gtk-play"]

    /// The first player in `path` (a `PATH` value), with the theme folders of `environment`; nil when none is.
    public static func find(environment: [String: String]) -> SoundPlayer? {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        let candidates = programs.flatMap { name in folders.map { folder -> String in "\(folder)/\(name)" } }
        guard let program = candidates.first(where: { path in access(path, X_OK) == 0 }) else { return nil }
        let home = environment["HOME"].map { "\($0)/.local/share" }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        let forwarded = ["PULSE_SERVER", "PIPEWIRE_REMOTE"].compactMap { name in environment[name].map { "\(name)=\($0)" } }
        return SoundPlayer(program: program, themeFolders: ([dataHome].compactMap { $0 } + dataDirs).map { $0 + "/sounds" }, environment: forwarded)
    }

    /// The player's arguments for `sound`, or nil when a name is not in the theme (and the player cannot look it up).
    func arguments(for sound: Sound) -> [String]? {
        let canberra = program.hasSuffix("/canberra-gtk-play")
        switch sound {
        case .none:
            return nil
        case .file(let path):
            return canberra ? [program, "-f", path] : [program, path]
        case .named(let name):
            if let file = themeFile(named: name) { return canberra ? [program, "-f", file] : [program, file] }
            return canberra ? [program, "-i", name] : nil
        }
    }

    /// The file of a sound theme's sound: the freedesktop theme's stereo sound, then one at the theme's top.
    func themeFile(named name: String) -> String? {
        for folder in themeFolders {
            for subfolder in ["freedesktop/stereo", "freedesktop"] {
                for suffix in ["oga", "ogg", "wav"] {
                    let path = "\(folder)/\(subfolder)/\(name).\(suffix)"
                    if access(path, R_OK) == 0 { return path }
                }
            }
        }
        return nil
    }

    /// Why a sound file cannot be played, in one line that says what to give instead, or nil. The file is opened
    /// without blocking and its type checked on the opened descriptor: a FIFO put in its place between a check
    /// and an open would otherwise hold the call (and every call after it) until a writer came.
    public static func problem(withFile path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else {
            return errno == ENOENT || errno == ENOTDIR
                ? "'\(path)' does not exist: give the absolute path of a sound file (.oga, .ogg, .wav, .flac)"
                : "'\(path)' cannot be read: make it readable (chmod a+r), or give another file"
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "'\(path)' is not a file: give the absolute path of a sound file" }
        var header = [UInt8](repeating: 0, count: 12)
        let count = read(descriptor, &header, header.count)
        guard count > 0, Sound.looksLikeSound(header: Array(header.prefix(count))) else {
            return "'\(path)' is not a sound file remindd can play: give an Ogg (.oga, .ogg), WAV or FLAC file"
        }
        return nil
    }
}
