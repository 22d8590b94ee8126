import HabitCore
import ReminderCore
import ReminderInterface
import ReminderStore

/// The `Report` method: over a period, how well each reminder was kept (``AdherenceFigures``), each medication's
/// amounts and stock (``MedicationFigures``), the habit (``HabitFigures``) and the calories, read from the stores.
/// The figures are the cores'; this type reads and gathers them.
struct ReportService: Sendable {
    let context: DaemonContext
    /// The stores it holds: what a report reads: reminders, doses, outcomes, stock and workouts (it writes none).
    let stores: Stores
    let reminders: ReminderService
    let habits: HabitService
    let fitness: FitnessService

    /// The longest period a report covers.
    static let maximumDays = 20 * 366

    func register(in router: inout MethodRouter) {
        router.on(Reminders.Report.self, largeReply: true) { p in try await report(from: p.from, to: p.to, keys: p.reminders, person: p.person) }
    }

    func report(from fromText: String?, to toText: String?, keys: [String]?, person: String? = nil) async throws(ServiceError) -> Reminders.Report.Reply {
        let now = context.clock.now()
        let to = try context.settings.date(toText, parameter: "to", now: now)
        let from = try fromText.map { text throws(ServiceError) in try TypedTime.date(text, parameter: "from") } ?? LocalDate(dayNumber: to.dayNumber - 89)
        guard from <= to else {
            throw .invalidTime(parameter: "from", message: "--from \(from) is after --to \(to): give the first day first")
        }
        guard to.dayNumber - from.dayNumber < Self.maximumDays else {
            throw .invalidTime(parameter: "from", message: "\(from) to \(to) is over 20 years: give a shorter period")
        }
        let named = keys.map { !$0.isEmpty } ?? false
        let chosen = try self.chosen(keys: named ? keys : nil, person: person)
        var adherence: [ReportReminderValue] = []
        var medications: [ReportMedicationValue] = []
        for reminder in chosen {
            // Those taken as needed have nothing due: named, they are reported all the same.
            let counted = named || reminder.rule.asNeeded != true
            let (kept, taken) = try await offTheEventLoops { () throws(ServiceError) in
                (counted ? try figures(of: reminder, from: from, to: to, now: now) : nil, try medication(reminder, from: from, to: to))
            }
            if let kept { adherence.append(kept) }
            if let taken { medications.append(taken) }
        }
        // Someone else's report is theirs alone: the habit and the calories are the user's.
        let someoneElse = person.map { !Self.isTheUser($0) } ?? false
        let profileName = someoneElse ? chosen.first?.delivery.person.person : try storing { () throws(StoreError) in try stores.fitness.profile(FitnessService.profileNameKey) }
        let (habit, calories) = try await offTheEventLoops { () throws(ServiceError) in
            named || someoneElse ? (nil, nil) : (try habitFigures(from: from, to: to, now: now), try fitness.calories(from: from, through: to))
        }
        return .init(
            from: from.description, to: to.description, timeZone: try context.settings.zone(named: nil).identifier, madeUtc: now.description,
            reminders: adherence, profileName: profileName, medications: medications.isEmpty ? nil : medications, habits: habit, fitness: calories)
    }

    /// The reminders a report covers: those named; else every enabled reminder of the user's own, not a
    /// calendar's alarm, not the built-in weekly check-in (a question, not something to take: it would only ever
    /// count as missed); with `person`, only those for them (`me` or "": the user's own).
    private func chosen(keys: [String]?, person: String?) throws(ServiceError) -> [StoredReminder] {
        if let keys { return try keys.map { key throws(ServiceError) in try reminders.find(key) } }
        let all = try storing { () throws(StoreError) in try stores.reminders.all() }
            .filter { $0.enabled && $0.delivery.calendar == nil && $0.name != ReminderService.restCheckInName }
        guard let person else { return all }
        let theirs = all.filter { Self.isTheUser(person) ? $0.delivery.person.person == nil : $0.delivery.person.isFor(person) }
        guard theirs.isEmpty, !Self.isTheUser(person) else { return theirs }
        let people = Set(all.compactMap(\.delivery.person.person)).sorted()
        throw .invalidInput(parameter: "person", message: """
            no reminder is for \(quotedInput(person)): \(people.isEmpty ? "none is for anyone else (add one with --for NAME)" : "give one of " + people.joined(separator: ", ") + ", or me")
            """)
    }

    /// `me` or "": the user's own reminders.
    static func isTheUser(_ person: String) -> Bool { ["", "me"].contains(person.lowercased()) }

    /// A reminder's adherence figures over the period.
    private func figures(of reminder: StoredReminder, from: LocalDate, to: LocalDate, now: Instant) throws(ServiceError) -> ReportReminderValue {
        let zone = try context.settings.zone(named: reminder.timeZone)
        let rule = try context.firingRule(of: reminder)
        let (start, end) = Self.reach(from: from, to: to, zone: zone)
        let id = reminder.id
        let logs = try storing { () throws(StoreError) in try stores.intake.instants(reminderID: id, from: start, through: end) }
        let skipped = try storing { () throws(StoreError) in try stores.firings.outcomes(reminderID: id, from: start, through: end, state: .skipped) }
        let late = try storing { () throws(StoreError) in try stores.intake.lateTakes(reminderIDs: [id], from: start, through: end)[id] ?? [:] }
        let skips = Dictionary(skipped.map { (Instant(secondsSinceEpoch: $0.scheduledAt), $0.reason ?? "") }) { first, _ in first }
        let forced = try storing { () throws(StoreError) in try stores.intake.forcedCount(reminderID: id, from: start, through: end) }
        let medication = reminder.delivery.medication
        let dose = medication.dose.map { $0.description + (medication.strength.map { " of \($0.description)" } ?? "") + ", " } ?? ""
        return ReportReminderValue(
            reminderId: id, reminderName: reminder.name,
            figures: AdherenceFigures(
                rule: rule, zone: zone, windowSeconds: reminder.windowSeconds, createdAt: Instant(secondsSinceEpoch: reminder.createdAt),
                from: from, through: to, logs: logs, skips: skips, takenLate: late, now: now, pauses: reminder.delivery.pause),
            regimen: dose + rule.summary, forced: forced > 0 ? forced : nil
        ).of(reminder.delivery.person).saying(medication, rule: reminder.rule)
    }

    /// A medication's amounts, as-needed weeks and stock over the period; nil for a reminder without a dose.
    private func medication(_ reminder: StoredReminder, from: LocalDate, to: LocalDate) throws(ServiceError) -> ReportMedicationValue? {
        guard let dose = reminder.delivery.medication.dose else { return nil }
        let id = reminder.id
        let zone = try context.settings.zone(named: reminder.timeZone)
        let (start, end) = Self.reach(from: from, to: to, zone: zone)
        let logs = try storing { () throws(StoreError) in try stores.intake.amounts(reminderID: id, from: start, through: end) }
        let changes = try storing { () throws(StoreError) in try stores.stock.changes(reminderID: id, sinceFirstCount: true) }
        let figures = MedicationFigures(
            logs: logs.map { ($0.at, $0.amount ?? dose.thousandths) }, stockChanges: changes,
            asNeeded: reminder.rule.asNeeded == true, zone: zone, from: from, through: to)
        func amount(_ thousandths: Int64) -> Double { Double(thousandths) / 1000 }
        var value = ReportMedicationValue(
            reminderId: id, reminderName: reminder.name, unit: dose.unit,
            taken: figures.taken.map { .init(date: $0.date.description, amount: amount($0.thousandths)) },
            asNeededWeeks: figures.asNeededWeeks?.map { .init(week: $0.monday.description, doses: $0.doses) },
            stock: figures.stock?.map { .init(date: $0.date.description, left: amount($0.left), added: amount($0.added)) })
        let limits = reminder.delivery.medication.limits
        (value.minIntervalSeconds, value.maxPerDay) = (limits.minIntervalSeconds, limits.maxPerDay)
        if reminder.rule.asNeeded == true {
            let (first, last) = Self.period(from: from, to: to, zone: zone)
            value.asNeededDoses = logs.filter { $0.at >= first && $0.at < last }.count
        }
        value.forcedDoses = try forcedDoses(of: reminder, limits: limits, zone: zone, logs: logs.map(\.at), from: from, to: to)
        return value
    }

    /// The doses forced past a limit in the period, each with the limit it broke when it was logged; nil when none.
    private func forcedDoses(
        of reminder: StoredReminder, limits: DoseLimits, zone: TimeZoneRules, logs: [Instant], from: LocalDate, to: LocalDate
    ) throws(ServiceError) -> [ReportMedicationValue.ForcedDose]? {
        let (first, last) = Self.period(from: from, to: to, zone: zone)
        let forced = try storing { () throws(StoreError) in try stores.intake.forcedInstants(reminderID: reminder.id, from: first, through: last.adding(seconds: -1)) }
        guard !forced.isEmpty else { return nil }
        func local(_ instant: Instant) -> String { ISO8601.format(instant, offsetSeconds: zone.offset(at: instant), zulu: false) }
        return limits.breaches(ofForced: forced, among: logs).map { at, breach in
            switch breach {
            case .tooSoon(let other)?: .init(at: local(at), limit: "minInterval", other: local(other))
            case .tooMany(let count, let first)?: .init(at: local(at), limit: "maxPerDay", other: local(first), count: count)
            case nil: .init(at: local(at), limit: "")
            }
        }
    }

    /// The habit's days, weekdays and streaks over the period; nil when nothing was active in it.
    private func habitFigures(from: LocalDate, to: LocalDate, now: Instant) throws(ServiceError) -> ReportHabitsValue? {
        let figures = HabitFigures(report: try habits.report(now: now), from: from, through: to)
        guard figures.days.contains(where: { $0.state == .active }) else { return nil }
        return ReportHabitsValue(
            days: figures.days.map { .init(date: $0.date.description, state: $0.state.rawValue, strength: $0.strength) },
            activeByWeekday: figures.activeByWeekday,
            streaks: figures.streaks.map { .init(length: $0.length, start: $0.start.description, end: $0.end.description) })
    }

    /// The period's first instant and the first instant after it, in `zone`.
    private static func period(from: LocalDate, to: LocalDate, zone: TimeZoneRules) -> (first: Instant, after: Instant) {
        let midnight = TimeOfDay(hour: 0, minute: 0)!
        return (zone.resolve(LocalDateTime(date: from, time: midnight)), zone.resolve(LocalDateTime(date: LocalDate(dayNumber: to.dayNumber + 1), time: midnight)))
    }

    /// From two days before the period to two after (instants in `zone`): a window or a late take crosses midnight.
    private static func reach(from: LocalDate, to: LocalDate, zone: TimeZoneRules) -> (start: Instant, end: Instant) {
        (zone.resolve(LocalDateTime(date: LocalDate(dayNumber: from.dayNumber - 2), time: TimeOfDay(hour: 0, minute: 0)!)),
         zone.resolve(LocalDateTime(date: LocalDate(dayNumber: to.dayNumber + 3), time: TimeOfDay(hour: 0, minute: 0)!)))
    }
}

extension ReportService {
    /// The stores ReportService holds, and no other: what a report reads: reminders, doses, outcomes, stock and
    /// workouts (it writes none).
    struct Stores: Sendable {
        let reminders: RemindersStore
        let intake: IntakeStore
        let firings: FiringsStore
        let stock: StockStore
        let fitness: FitnessStore
    }
}
