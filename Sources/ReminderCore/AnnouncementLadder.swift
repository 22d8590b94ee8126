/// What each announcement of a reminder's occurrence does, in order, on one screen (`show`'s ladder): the
/// notices before it, the announcement (urgency, sound, speech, hooks), the repeats, the escalation, and the end
/// of its window. A value from the reminder's parts and the config's defaults; no I/O.
public struct AnnouncementLadder: Sendable, Hashable {
    /// One step.
    public struct Step: Codable, Sendable, Hashable {
        /// Seconds from the occurrence's time (negative: before it); nil for `missed` without a window of its
        /// own: its window ends at the next occurrence, at most at the end of the day.
        public var afterSeconds: Int64?
        /// `before`, `announced`, `repeated`, `escalated`, `missed`.
        public var what: String
        /// `critical`, `normal` or `low`; nil: no notification.
        public var urgency: String?
        /// The sound played (a theme's name or a file); nil: none.
        public var sound: String?
        public var spoken: Bool
        /// The programs run (hooks, the escalation command).
        public var commands: [String]
        /// A repeat: how many times (nil: until the window ends), every how many seconds.
        public var times: Int?
        public var everySeconds: Int64?
    }

    /// What the config says for reminders that do not say otherwise.
    public struct Defaults: Sendable, Hashable {
        /// The sound of the reminder's kind (config.toml's `dose-sound` or `reminder-sound`).
        public var sound: Sound
        /// Whether config.toml's `speak` says it aloud.
        public var speaks: Bool
        /// config.toml's `on-fire` and `on-missed` programs.
        public var onFire: String?
        public var onMissed: String?

        public init(sound: Sound, speaks: Bool, onFire: String? = nil, onMissed: String? = nil) {
            (self.sound, self.speaks, self.onFire, self.onMissed) = (sound, speaks, onFire, onMissed)
        }
    }

    public let steps: [Step]

    /// - Parameter windowSeconds: the reminder's own window; nil: until its next occurrence, at most the end of
    ///   the day.
    public init(delivery: Delivery, windowSeconds: Int64?, defaults: Defaults) {
        let notification = delivery.notification
        let sound = notification.sound ?? defaults.sound
        let heard = sound == .none ? nil : sound.text
        let spoken = notification.speak ?? defaults.speaks
        let urgency = delivery.critical ? "critical" : "normal"
        let onFire = [defaults.onFire, delivery.hook.command?.first].compactMap { $0 }
        var steps = (notification.beforeMinutes ?? []).sorted(by: >).map { minutes in
            Step(afterSeconds: -Int64(minutes) * 60, what: "before", urgency: "low", sound: nil, spoken: false, commands: onFire)
        }
        steps.append(Step(afterSeconds: 0, what: "announced", urgency: urgency, sound: heard, spoken: spoken, commands: onFire))
        if let plan = delivery.repeating.plan {
            steps.append(Step(
                afterSeconds: plan.intervalSeconds, what: "repeated", urgency: urgency, sound: heard, spoken: spoken, commands: onFire,
                times: plan.maximum, everySeconds: plan.intervalSeconds))
        }
        let escalation = delivery.escalation.command?.first
        if let escalation, let after = delivery.escalation.afterSeconds {
            steps.append(Step(afterSeconds: after, what: "escalated", urgency: nil, sound: nil, spoken: false, commands: [escalation]))
        }
        let onMissed = [defaults.onMissed, delivery.escalation.afterSeconds == nil ? escalation : nil].compactMap { $0 }
        // In time order (the escalation may come before a repeat); the window's end is last.
        let timed = steps.enumerated().sorted { ($0.element.afterSeconds ?? 0, $0.offset) < ($1.element.afterSeconds ?? 0, $1.offset) }.map(\.element)
        self.steps = timed + [Step(afterSeconds: windowSeconds, what: "missed", urgency: "normal", sound: nil, spoken: false, commands: onMissed)]
    }
}
