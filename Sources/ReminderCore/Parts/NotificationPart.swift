/// How a reminder's announcement asks to be seen and heard, what its Snooze button does, and the notices that
/// warn before it (`--urgency`, `--snooze`, `--sound`, `--quiet-hours`, `--before`, `--speak`).
public struct NotificationSettings: ReminderPart {
    /// The notification's urgency as set (nil: automatic, critical for a dose: see ``Delivery/critical``).
    public var urgency: Urgency?
    /// How long the notification's Snooze button puts the occurrence off, in minutes (nil: ``defaultSnoozeMinutes``).
    public var snoozeMinutes: Int? {
        get { storedSnooze.map(Int.init) }
        set { storedSnooze = newValue.map { UInt16(clamping: $0) } }
    }
    /// ``snoozeMinutes`` in two bytes (1 to 1,440): every reminder of a 100,000 holds a delivery.
    private var storedSnooze: UInt16?
    /// The sound an announcement plays (nil: the default of its kind, the config's `dose-sound` or
    /// `reminder-sound`).
    public var sound: Sound? {
        get { storedSound?.sound }
        set { storedSound = newValue.map(SoundBox.init) }
    }
    /// ``sound`` behind one reference: 8 bytes in each of 100,000 reminders instead of a string's 17.
    private var storedSound: SoundBox?
    /// Whether config.toml's quiet hours quiet it (nil: a reminder without a dose is quieted, a dose rings through).
    public var quietHours: QuietHoursChoice?
    /// How many minutes before each occurrence a notice warns of it ("Metformin in 15m"), ascending; nil: none.
    public var beforeMinutes: [Int]?
    /// Whether its announcement is spoken (`--speak`, `--no-speak`); nil: as config.toml's `speak` says.
    public var speak: Bool?

    /// What quiet hours do to a reminder, as `--quiet-hours` says.
    public enum QuietHoursChoice: String, Sendable, Hashable, CaseIterable {
        /// Announced as at any other time (a reminder without a dose that must be heard at night).
        case ignore
        /// Announced quietly (a dose that can wait for the morning's look at the screen).
        case respect
    }

    /// A notification's urgency (the specification's 1 and 2; remindd asks for no low urgency).
    public enum Urgency: String, Sendable, Hashable, CaseIterable {
        case normal, critical
    }

    public init() {}

    public init(
        urgency: Urgency? = nil, snoozeMinutes: Int? = nil, sound: Sound? = nil, quietHours: QuietHoursChoice? = nil, beforeMinutes: [Int]? = nil,
        speak: Bool? = nil
    ) {
        self.beforeMinutes = beforeMinutes
        self.speak = speak
        self.urgency = urgency
        self.snoozeMinutes = snoozeMinutes
        self.sound = sound
        self.quietHours = quietHours
    }

    /// The Snooze button's length unless a reminder says otherwise.
    public static let defaultSnoozeMinutes = 10
    /// What `--snooze` may be, in minutes: 1 minute to 24 hours.
    public static let snoozeRange = 1...1440

    /// What `--before` may be, in minutes: 1 minute to 7 days; at most ``beforeLimit`` of them.
    public static let beforeRange = 1...10080
    public static let beforeLimit = 4

    /// The Snooze button's length in effect, in minutes.
    public var snooze: Int { snoozeMinutes ?? Self.defaultSnoozeMinutes }

    /// `--urgency normal|critical|auto`, `--snooze 15m`, `--sound NAME|FILE|none`, `--quiet-hours ignore|respect`,
    /// `--before 15m,1h` ("" with update: the default; for `--before`, none), `--speak`/`--no-speak`.
    public struct Change: Codable, Hashable, Sendable {
        public var urgency: String?
        public var snooze: String?
        public var sound: String?
        public var quietHours: String?
        public var before: String?
        public var speak: Bool?

        public init(
            urgency: String? = nil, snooze: String? = nil, sound: String? = nil, quietHours: String? = nil, before: String? = nil, speak: Bool? = nil
        ) {
            (self.urgency, self.snooze, self.sound, self.quietHours, self.before, self.speak) = (urgency, snooze, sound, quietHours, before, speak)
        }
    }

    /// As a reply shows it: `urgency`, normal or critical, in effect (``Delivery/Shown`` says it for a dose);
    /// `snoozeMinutes`, the Snooze button's length in effect; `sound`, as set (absent: the default of its kind);
    /// `quietHours`, ignore or respect as set (absent: the default, quiet unless a dose); `beforeMinutes`, the
    /// notices before each occurrence (absent: none); `speak`, as set (absent: config.toml's `speak`).
    public struct Shown: Codable, Hashable, Sendable {
        public var urgency: String
        public var snoozeMinutes: Int
        public var sound: String?
        public var quietHours: String?
        public var beforeMinutes: [Int]?
        public var speak: Bool?
    }

    public static func check(_ change: Change, adding: Bool) throws(PartError) {
        if let urgency = change.urgency, !urgency.isEmpty, urgency != "auto", Urgency(rawValue: urgency) == nil {
            throw PartError("urgency", "invalid --urgency \(quotedInput(urgency)): write normal, critical or auto (critical for a dose)")
        }
        if let text = change.snooze, !text.isEmpty, minutes(text) == nil {
            throw PartError("snooze", "invalid --snooze \(quotedInput(text)): write whole minutes from 1m to 24h such as 5m, 15m or 1h")
        }
        if let text = change.sound, !text.isEmpty {
            if let problem = Sound(text).problem { throw PartError("sound", "invalid --sound \(quotedInput(text)): \(problem)") }
        }
        if let text = change.quietHours, !text.isEmpty, QuietHoursChoice(rawValue: text) == nil {
            throw PartError("quietHours", "invalid --quiet-hours \(quotedInput(text)): write ignore (announced as at any time) or respect (announced quietly)")
        }
        if let text = change.before, !text.isEmpty, beforeMinutes(text) == nil {
            throw PartError(
                "before", "invalid --before \(quotedInput(text)): write up to \(beforeLimit) lengths of whole minutes from 1m to 7d, such as 15m or 15m,1h")
        }
    }

    /// The minutes `text` lists (`15m,1h`), ascending and each once; nil when one is not 1 minute to 7 days of
    /// whole minutes, or there are more than ``beforeLimit``.
    private static func beforeMinutes(_ text: String) -> [Int]? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).withoutSurroundingSpaces }
        guard parts.count <= beforeLimit else { return nil }
        var minutes: [Int] = []
        for part in parts {
            guard let seconds = WindowLength.seconds(part), seconds % 60 == 0, beforeRange.contains(Int(seconds / 60)) else { return nil }
            minutes.append(Int(seconds / 60))
        }
        return Array(Set(minutes)).sorted()
    }

    /// The whole minutes `text` stands for (`15m`, `1h`), or nil when it is not 1 minute to 24 hours of them.
    private static func minutes(_ text: String) -> Int? {
        guard let seconds = WindowLength.seconds(text), seconds % 60 == 0, snoozeRange.contains(Int(seconds / 60)) else { return nil }
        return Int(seconds / 60)
    }

    public func applying(_ change: Change, adding: Bool) throws(PartError) -> Self {
        try Self.check(change, adding: adding)
        var changed = self
        if let urgency = change.urgency { changed.urgency = Urgency(rawValue: urgency) }
        if let text = change.snooze { changed.snoozeMinutes = Self.minutes(text) }
        if let text = change.sound { changed.sound = text.isEmpty ? nil : Sound(text) }
        if let text = change.quietHours { changed.quietHours = QuietHoursChoice(rawValue: text) }
        if let text = change.before { changed.beforeMinutes = text.isEmpty ? nil : Self.beforeMinutes(text) }
        if let speak = change.speak { changed.speak = speak }
        return changed
    }

    public var problem: String? {
        if let snoozeMinutes, !Self.snoozeRange.contains(snoozeMinutes) { return "snooze \(snoozeMinutes) min is not 1 minute to 24 hours" }
        if let beforeMinutes, beforeMinutes.count > Self.beforeLimit || !beforeMinutes.allSatisfy(Self.beforeRange.contains) {
            return "before: not up to \(Self.beforeLimit) lengths of 1 minute to 7 days"
        }
        return sound?.problem.map { "sound: \($0)" }
    }

    public func shown(on date: LocalDate?) -> Shown {
        Shown(urgency: (urgency ?? .normal).rawValue, snoozeMinutes: snooze, sound: sound?.text, quietHours: quietHours?.rawValue, beforeMinutes: beforeMinutes,
            speak: speak)
    }

    /// What travels: the urgency, the snooze, a sound by name or none, quiet hours, the notices before; a sound
    /// file is this machine's own.
    public func merging(synced: Self) -> Self {
        var merged = synced
        if case .file = sound, synced.sound == nil { merged.sound = sound }
        return merged
    }

    public var syncedProperties: [SyncedProperty] {
        var properties = urgency.map { [SyncedProperty("URGENCY", $0.rawValue.uppercased())] } ?? []
        if let snoozeMinutes { properties.append(SyncedProperty("SNOOZE", String(snoozeMinutes * 60))) }
        if let sound, sound.travels { properties.append(SyncedProperty("SOUND", sound.text)) }
        if let quietHours { properties.append(SyncedProperty("QUIET-HOURS", quietHours.rawValue.uppercased())) }
        if let beforeMinutes { properties.append(SyncedProperty("BEFORE", beforeMinutes.map { String($0 * 60) }.joined(separator: ","))) }
        if let speak { properties.append(SyncedProperty("SPEAK", speak ? "TRUE" : "FALSE")) }
        return properties
    }

    public init(synced property: (String) -> String?) throws(PartError) {
        if let text = property("URGENCY") {
            guard let urgency = Urgency(rawValue: text.lowercased()) else { throw PartError("URGENCY", "X-REMINDD-URGENCY is not NORMAL or CRITICAL") }
            self.urgency = urgency
        }
        if let text = property("SNOOZE") {
            guard let seconds = Int(text), seconds % 60 == 0, Self.snoozeRange.contains(seconds / 60) else {
                throw PartError("SNOOZE", "X-REMINDD-SNOOZE is not whole minutes of 1 minute to 24 hours in seconds, e.g. 900")
            }
            snoozeMinutes = seconds / 60
        }
        if let text = property("SOUND") {
            let sound = Sound(text)
            guard sound.travels, sound.problem == nil else { throw PartError("SOUND", "X-REMINDD-SOUND is not a sound's name or none") }
            self.sound = sound
        }
        if let text = property("QUIET-HOURS") {
            guard let choice = QuietHoursChoice(rawValue: text.lowercased()) else { throw PartError("QUIET-HOURS", "X-REMINDD-QUIET-HOURS is not IGNORE or RESPECT") }
            quietHours = choice
        }
        if let text = property("BEFORE") {
            let seconds = text.split(separator: ",").map { Int($0) }
            guard !seconds.isEmpty, seconds.count <= Self.beforeLimit,
                seconds.allSatisfy({ $0.map { $0 % 60 == 0 && Self.beforeRange.contains($0 / 60) } ?? false })
            else { throw PartError("BEFORE", "X-REMINDD-BEFORE is not up to 4 lengths in seconds of whole minutes, 1 minute to 7 days, e.g. 900,3600") }
            beforeMinutes = Array(Set(seconds.compactMap { $0.map { $0 / 60 } })).sorted()
        }
        if let text = property("SPEAK") {
            guard ["TRUE", "FALSE"].contains(text.uppercased()) else { throw PartError("SPEAK", "X-REMINDD-SPEAK is not TRUE or FALSE") }
            speak = text.uppercased() == "TRUE"
        }
    }

    private enum CodingKeys: String, CodingKey { case critical, snoozeMinutes, sound, quietHours, beforeMinutes, speak }

    /// Stored as `critical`: true (critical), false (normal) or absent (automatic), as rows before had it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        urgency = try container.decodeIfPresent(Bool.self, forKey: .critical).map { $0 ? .critical : .normal }
        snoozeMinutes = try container.decodeIfPresent(Int.self, forKey: .snoozeMinutes)
        sound = try container.decodeIfPresent(String.self, forKey: .sound).map(Sound.init)
        quietHours = try container.decodeIfPresent(String.self, forKey: .quietHours).flatMap(QuietHoursChoice.init(rawValue:))
        beforeMinutes = try container.decodeIfPresent([Int].self, forKey: .beforeMinutes)
        speak = try container.decodeIfPresent(Bool.self, forKey: .speak)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(urgency.map { $0 == .critical }, forKey: .critical)
        try container.encodeIfPresent(snoozeMinutes, forKey: .snoozeMinutes)
        try container.encodeIfPresent(sound?.text, forKey: .sound)
        try container.encodeIfPresent(quietHours?.rawValue, forKey: .quietHours)
        try container.encodeIfPresent(beforeMinutes, forKey: .beforeMinutes)
        try container.encodeIfPresent(speak, forKey: .speak)
    }
}

/// The sound an announcement plays: none, a sound of the freedesktop sound theme by name
/// (`alarm-clock-elapsed`), or a file (an absolute path).
public enum Sound: Sendable, Hashable {
    case none
    case named(String)
    case file(String)

    /// The endings of the sound files remindd's players read.
    public static let fileSuffixes = ["oga", "ogg", "wav", "flac"]

    /// `none`, a path (starting with `/`), or a name.
    public init(_ text: String) {
        if text == "none" { self = .none } else if text.hasPrefix("/") { self = .file(text) } else { self = .named(text) }
    }

    /// As it is written.
    public var text: String {
        switch self {
        case .none: "none"
        case .named(let name): name
        case .file(let path): path
        }
    }

    /// Whether it goes into a synced item: a file is this machine's own.
    public var travels: Bool {
        if case .file = self { return false }
        return true
    }

    /// What is wrong with it as written (the file itself is checked where it is played), or nil.
    public var problem: String? {
        switch self {
        case .none: return nil
        case .named(let name):
            let allowed = name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "." || $0 == "_" }
            guard !name.isEmpty, name.count <= 64, allowed, !name.hasPrefix("."), !name.hasPrefix("-") else {
                return "write a sound theme's name such as alarm-clock-elapsed, an absolute path to a sound file, or none"
            }
            if Self.fileSuffixes.contains(where: { name.hasSuffix("." + $0) }) {
                return "a file is given by its path: write ./\(name) or its absolute path"
            }
            return nil
        case .file(let path):
            guard path.utf8.count <= 4096, !path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }), !path.hasSuffix("/") else {
                return "write the absolute path of a sound file (.oga, .ogg, .wav, .flac)"
            }
            return nil
        }
    }

    /// Whether the first bytes of a file are those of a sound remindd's players read (Ogg, WAV, FLAC).
    public static func looksLikeSound(header: [UInt8]) -> Bool {
        func starts(_ magic: String, at offset: Int = 0) -> Bool {
            header.count >= offset + magic.utf8.count && Array(header[offset..<(offset + magic.utf8.count)]) == Array(magic.utf8)
        }
        return starts("OggS") || starts("fLaC") || (starts("RIFF") && starts("WAVE", at: 8))
    }
}

/// A ``Sound`` behind a reference (see ``NotificationSettings/sound``).
private final class SoundBox: Sendable, Hashable {
    let sound: Sound
    init(_ sound: Sound) { self.sound = sound }
    static func == (lhs: SoundBox, rhs: SoundBox) -> Bool { lhs.sound == rhs.sound }
    func hash(into hasher: inout Hasher) { hasher.combine(sound) }
}
