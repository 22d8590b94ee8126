/// What became of one occurrence of a reminder: the answer to "did I take my morning pill?".
public enum OccurrenceState: String, Sendable, Hashable, CaseIterable {
    /// Its instant is still ahead.
    case upcoming
    /// It fired and its window is open: nothing logged or skipped yet.
    case due
    /// A log falls inside its window.
    case taken
    /// The user said they skip it.
    case skipped
    /// Its window ended with nothing logged and no skip.
    case missed
    /// Logged before it fired, so it was never announced (the README's suppression rule).
    case suppressed
    /// Missed, then taken late: a log made for it after its window closed ("Taken late" on the Missed
    /// notification, `remindctl done --late`). Counted as taken by a goal's streak.
    case takenLate = "taken-late"
    /// A pause with dates covers it (`remindctl pause`): not announced, never missed, counted apart.
    case paused
}

/// One occurrence with its window and its state at an instant.
public struct OccurrenceStatus: Sendable, Hashable {
    public var occurrence: Occurrence
    /// When the window closes: a due occurrence with nothing logged by then is missed.
    public var windowEnd: Instant
    public var state: OccurrenceState
    /// The log that covers it (taken) or the logs counted against it (suppressed: the latest of them).
    public var coveredBy: Instant?

    public init(occurrence: Occurrence, windowEnd: Instant, state: OccurrenceState, coveredBy: Instant? = nil) {
        self.occurrence = occurrence
        self.windowEnd = windowEnd
        self.state = state
        self.coveredBy = coveredBy
    }
}

extension ReminderRule {
    /// The end of the window of `occurrence`: its next occurrence, at most the end of its local day, and at
    /// most `windowSeconds` after it when the reminder sets a window.
    public func windowEnd(of occurrence: Occurrence, windowSeconds: Int64?, in zone: TimeZoneRules) -> Instant {
        let day = zone.localDayNumber(at: occurrence.instant)
        let midnight = TimeOfDay(hour: 0, minute: 0)!
        var end = zone.resolve(LocalDateTime(date: LocalDate(dayNumber: day + 1), time: midnight))
        if let next = nextOccurrence(after: occurrence.instant, in: zone) { end = min(end, next.instant) }
        if let windowSeconds { end = min(end, occurrence.instant.adding(seconds: windowSeconds)) }
        return end
    }

    /// The state of each occurrence on `date` at `now`.
    ///
    /// In order: suppressed when the suppression rule covers it by logs before it (at least k logs of its day
    /// before the k-th occurrence); taken when a log falls in its window (from its instant to the window's end:
    /// a log in its very second takes it, as `done` right after the announcement does); skipped
    /// when `skips` holds its instant; paused when one of `pauses` covers it; otherwise upcoming before its instant, due until its window ends, then
    /// missed. Windows of one reminder never overlap, so a log takes at most one occurrence.
    /// - Parameters:
    ///   - logs: the instants of the reminder's logs (any days, any order).
    ///   - skips: the instants of occurrences the user skipped.
    ///   - windowSeconds: the reminder's own window, or nil for the default (until its next occurrence).
    ///   - takenLate: the occurrences taken late, by instant, with their logs (not among `logs`: a late take
    ///     neither covers nor suppresses another occurrence).
    ///   - pauses: the reminder's pauses with dates.
    public func states(
        on date: LocalDate, in zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?, now: Instant,
        takenLate: [Instant: Instant] = [:], pauses: PauseSettings = PauseSettings()
    ) -> [OccurrenceStatus] {
        // A window ends by the end of its occurrence's day and suppression counts that day's logs: only the
        // date's logs can decide its occurrences.
        let dayLogs = logs.filter { zone.localDayNumber(at: $0) == date.dayNumber }
        return occurrences(on: date, in: zone).enumerated().map { index, occurrence in
            state(
                of: occurrence, ordinal: { index + 1 }, in: zone, dayLogs: dayLogs, skips: skips, windowSeconds: windowSeconds, now: now,
                takenLate: takenLate, pauses: pauses)
        }
    }

    /// The state of each occurrence whose instant falls in `span`, and, when `now` is in `span`, of each earlier
    /// one still due at `now`: a day as another zone sees it (the user's, when the reminder keeps its own). Such a
    /// day may hold the end of one of this zone's days and the start of the next, and a window that crosses the
    /// other zone's midnight; each occurrence is decided by the logs of its own local day, as
    /// ``states(on:in:logs:skips:windowSeconds:now:takenLate:pauses:)`` decides it.
    public func states(
        during span: Range<Instant>, in zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?, now: Instant,
        takenLate: [Instant: Instant] = [:], pauses: PauseSettings = PauseSettings()
    ) -> [OccurrenceStatus] {
        guard !span.isEmpty else { return [] }
        // An occurrence due at `now` is on now's local day (its window ends by that day's end): among these days
        // when `now` is in `span`.
        let days = zone.localDayNumber(at: span.lowerBound)...zone.localDayNumber(at: span.upperBound.adding(seconds: -1))
        let carriesDue = span.contains(now)
        return days.flatMap { day in
            states(
                on: LocalDate(dayNumber: day), in: zone, logs: logs, skips: skips, windowSeconds: windowSeconds, now: now, takenLate: takenLate,
                pauses: pauses)
        }.filter { span.contains($0.occurrence.instant) || (carriesDue && $0.state == .due) }
    }

    /// The state of one occurrence at `now` (see ``states(on:in:logs:skips:windowSeconds:now:takenLate:pauses:)``).
    public func state(
        of occurrence: Occurrence, in zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?, now: Instant,
        takenLate: [Instant: Instant] = [:], pauses: PauseSettings = PauseSettings()
    ) -> OccurrenceStatus {
        let day = zone.localDayNumber(at: occurrence.instant)
        return state(
            of: occurrence, ordinal: { ordinal(of: occurrence, in: zone) }, in: zone, dayLogs: logs.filter { zone.localDayNumber(at: $0) == day }, skips: skips, windowSeconds: windowSeconds, now: now,
            takenLate: takenLate, pauses: pauses)
    }

    /// The state of one occurrence from the logs of its own local day, with its place among that day's
    /// occurrences (1-based), asked only when a log may suppress it.
    private func state(
        of occurrence: Occurrence, ordinal: () -> Int, in zone: TimeZoneRules, dayLogs: [Instant], skips: Set<Instant>, windowSeconds: Int64?,
        now: Instant, takenLate: [Instant: Instant], pauses: PauseSettings
    ) -> OccurrenceStatus {
        let end = windowEnd(of: occurrence, windowSeconds: windowSeconds, in: zone)
        // Logs before it: one in its very second is in its window (taken), though the firing, deciding in that
        // second, holds back for it (``suppression(of:logs:in:)`` counts it).
        if case .suppressed = suppression(of: occurrence, dayLogs: dayLogs.filter { $0 < occurrence.instant }, in: zone, ordinal: ordinal) {
            return OccurrenceStatus(occurrence: occurrence, windowEnd: end, state: .suppressed, coveredBy: dayLogs.filter { $0 <= occurrence.instant }.max())
        }
        if let log = dayLogs.filter({ $0 >= occurrence.instant && $0 < end }).min() {
            return OccurrenceStatus(occurrence: occurrence, windowEnd: end, state: .taken, coveredBy: log)
        }
        if let log = takenLate[occurrence.instant] {
            return OccurrenceStatus(occurrence: occurrence, windowEnd: end, state: .takenLate, coveredBy: log)
        }
        let state: OccurrenceState
        if skips.contains(occurrence.instant) {
            state = .skipped
        } else if pauses.span(covering: occurrence.instant) != nil {
            state = .paused
        } else if now < occurrence.instant {
            state = .upcoming
        } else if now < end {
            state = .due
        } else {
            state = .missed
        }
        return OccurrenceStatus(occurrence: occurrence, windowEnd: end, state: state)
    }

    /// The first occurrence after `instant` that the user has not skipped ahead of time.
    /// With `pauses`: nor one a pause covers (the first after the pause).
    public func nextOccurrence(after instant: Instant, in zone: TimeZoneRules, passing skips: Set<Instant>, pauses: PauseSettings = PauseSettings()) -> Occurrence? {
        var next = nextOccurrence(after: instant, in: zone)
        var passed = 0
        while let candidate = next {
            if let span = pauses.span(covering: candidate.instant) {
                next = nextOccurrence(after: span.until.adding(seconds: -1), in: zone)  // each pause is passed once
            } else if passed < skips.count, skips.contains(candidate.instant) {
                passed += 1  // each skip passes at most one occurrence
                next = nextOccurrence(after: candidate.instant, in: zone)
            } else {
                break
            }
        }
        return next
    }

    /// The occurrence that is due at `now`, if any: the latest one at or before `now`, when its window is still
    /// open with nothing logged or skipped (what `done`, `skip` and `snooze` act on).
    public func dueOccurrence(
        at now: Instant, in zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?
    ) -> OccurrenceStatus? {
        let today = zone.localDayNumber(at: now)
        let recent = occurrences(on: LocalDate(dayNumber: today - 1), in: zone) + occurrences(on: LocalDate(dayNumber: today), in: zone)
        guard let latest = recent.last(where: { $0.instant <= now }) else { return nil }
        let status = state(of: latest, in: zone, logs: logs, skips: skips, windowSeconds: windowSeconds, now: now)
        return status.state == .due ? status : nil
    }
}
