import ReminderCore
import ReminderInterface
import ReminderStore

/// A medication's stock: counts and refills, what is left after the doses logged, how long it lasts, and the
/// low-stock notice (once when what is left covers fewer days than the reminder's `refillDays`, again only
/// after a refill). The arithmetic is ``Stock``'s; this service reads and records.
struct MedicationService: Sendable {
    let context: DaemonContext
    /// The stores it holds: the stock it writes; the reminders and doses it counts with, read.
    let stores: Stores

    /// Counts (`set`) or refills (`added`) a reminder's stock: a pack, with the last day it may be used.
    func change(_ kind: StockChangeRecord.Kind, key: String, amount text: String, expires: String? = nil) throws(ServiceError) -> StockValue {
        let reminder = try storing { () throws(StoreError) in try stores.reminders.find(key) }
        let now = context.clock.now()
        let last = try expires.map { text throws(ServiceError) in try Self.lastDay(text, today: try zone(of: reminder).localDateTime(at: now).date) }
        let dose = try Self.dose(of: reminder)
        let amount: Int64
        if kind == .set, text.first == "0", text.allSatisfy({ $0 == "0" || $0 == "." }) {
            amount = 0  // counted: none left (a dose is never 0, so Dose does not read it)
        } else {
            do { amount = try Self.stockAmount(text, dose: dose, strength: reminder.delivery.medication.strength) } catch {
                throw .invalidInput(parameter: "amount", message: error.message.replacingOccurrences(of: "dose", with: "amount"))
            }
        }
        let level = try self.level(of: reminder, now: now)
        if kind == .added, level.left == nil {
            throw .invalidInput(parameter: "reminder", message: "\(reminder.name)'s stock was never counted: count it first with remindctl stock set \"\(reminder.name)\" \(text)")
        }
        guard (level.left ?? 0) + (kind == .added ? amount : 0) <= Stock.maximumThousandths, amount <= Stock.maximumThousandths else {
            throw .invalidInput(parameter: "amount", message: "a stock holds at most \(Stock.maximumThousandths / 1000) \(dose.unit)")
        }
        try storing { () throws(StoreError) in try stores.stock.record(kind, reminderID: reminder.id, amount: amount, expires: last, at: now) }
        checkLowStock(now: now)
        return try value(of: reminder, now: now)
    }

    /// The stock of one reminder, or of every reminder with a dose (`runningLow`: of those that run low); a
    /// page of them (`limit` after the id `after`), and the `after` of the next page.
    func stocks(key: String?, runningLow: Bool = false, page: (after: Int64, limit: Int?) = (0, nil)) throws(ServiceError)
        -> (stocks: [StockValue], next: Int64?)
    {
        if let limit = page.limit, !(1...Self.stockPageMaximum).contains(limit) {
            throw .invalidInput(parameter: "limit", message: "limit must be 1 to \(Self.stockPageMaximum)")
        }
        return try stocks(key: key, runningLow: runningLow) { $0.filter { $0.id > page.after }.prefix(page.limit ?? Int.max) }
    }

    static let stockPageMaximum = 1000

    /// The stocks of the reminders `choose` keeps (in id order) of those with a dose, and, when it left some, the
    /// id of the last it kept (a page's end: kept even when that one's stock is filtered out as not running low).
    private func stocks(key: String?, runningLow: Bool, choose: ([StoredReminder]) -> ArraySlice<StoredReminder>) throws(ServiceError)
        -> (stocks: [StockValue], next: Int64?)
    {
        let now = context.clock.now()
        if let key {
            let value = try value(of: try storing { () throws(StoreError) in try stores.reminders.find(key) }, now: now)
            return (!runningLow || value.runsLow ? [value] : [], nil)
        }
        // One query for which were ever counted: a stock never counted has no changes to read (1,000 medications
        // read one by one took 110 of the call's 186 ms), and does not run low.
        let counted = Set(try storing { () throws(StoreError) in try stores.stock.counted() })
        if runningLow, counted.isEmpty { return ([], nil) }
        let withDose = try storing { () throws(StoreError) in try stores.reminders.all() }
            .filter { $0.delivery.medication.dose != nil && (!runningLow || counted.contains($0.id)) }
        let chosen = choose(withDose)
        let values = try chosen.map { reminder throws(ServiceError) in try value(of: reminder, now: now, counted: counted.contains(reminder.id)) }
        let next = chosen.last.flatMap { last in withDose.last.map { $0.id > last.id } == true ? last.id : nil }
        return (runningLow ? values.filter(\.runsLow) : values, next)
    }

    /// Gives the low-stock notice of each counted reminder that runs low and was not told since its last refill,
    /// and says a dose logged with less left than it took.
    func checkLowStock(now: Instant) {
        do {
            for id in try stores.stock.counted() {
                guard let reminder = try stores.reminders.all(ids: id...id).first, reminder.enabled, reminder.delivery.medication.dose != nil else { continue }
                let stock = try assessed(reminder, now: now)
                if let short = stock.level.lastShort, try stores.stock.shortReported(reminderID: id, through: short) {
                    context.say(.warning, DaemonMessages.stockShort, reminder.name)
                }
                try sayExpired(stock.level.expired, of: reminder, unit: stock.dose.unit, now: now)
                let refillDays = reminder.delivery.medication.refillDays ?? MedicationSettings.defaultRefillDays
                guard let left = stock.level.left, let coverage = stock.coverage, !coverage.outlastsTheRule else { continue }
                // No dose covered: 0 days (nothing for the next one).
                let days = coverage.through == nil ? 0 : coverage.days
                guard days < refillDays, try stores.stock.mayNotice(reminderID: id) else { continue }
                try stores.stock.noticed(reminderID: id, left: left, at: now)
                let today = try zone(of: reminder).localDateTime(at: now).date
                context.announcer.announce(.lowStock(LowStockNotice(
                    reminderID: id, name: reminder.name, left: Dose(thousandths: left, unit: stock.dose.unit),
                    through: coverage.through?.localDateTime.date, days: days, refillDays: refillDays, command: reminder.delivery.hook.command,
                    orderBy: Self.orderBy(coverage, orderDays: reminder.delivery.medication.orderDaysInEffect, today: today))))
            }
        } catch {
            context.say(.error, "Could not check the medications' stock: \(error)")
        }
    }

    /// Says once of each pack past its last day that it no longer counts, with what it held.
    private func sayExpired(_ packs: [Stock.Pack], of reminder: StoredReminder, unit: String, now: Instant) throws(StoreError) {
        for pack in packs {
            guard let expiry = pack.expiry, try stores.stock.expirySaid(changeID: expiry.id, at: now) else { continue }
            context.say(.warning, DaemonMessages.packExpired, reminder.name, Dose(thousandths: pack.left, unit: unit).description, expiry.last)
        }
    }

    private static func dose(of reminder: StoredReminder) throws(ServiceError) -> Dose {
        guard let dose = reminder.delivery.medication.dose else {
            throw .invalidInput(parameter: "reminder", message: "\(reminder.name) has no dose to count a stock of: give it one, e.g. remindctl update \"\(reminder.name)\" --dose 1 --unit tablet")
        }
        return dose
    }

    /// `counted`: false when the caller knows it was never counted (its level is then read from no changes).
    private func level(of reminder: StoredReminder, now: Instant, counted: Bool = true) throws(ServiceError) -> Stock.Level {
        let changes = counted ? try storing { () throws(StoreError) in try stores.stock.changes(reminderID: reminder.id) } : []
        return Stock.level(changes, zone: try zone(of: reminder), now: now)
    }

    private func zone(of reminder: StoredReminder) throws(ServiceError) -> TimeZoneRules {
        try context.settings.zone(named: reminder.timeZone)
    }

    /// An amount of stock in the dose's unit: `30` or `30 tablets`; with a strength, also in its unit (`600mg` of
    /// 20 mg tablets: 30 tablets).
    static func stockAmount(_ text: String, dose: Dose, strength: Dose?) throws(RuleSpecError) -> Int64 {
        if let strength {
            let given: Dose?
            do { given = try Dose(amount: text, unit: nil) } catch { given = nil }  // no unit of its own: the dose's, below
            if let given, given.unit == strength.unit { return given.thousandths * 1000 / strength.thousandths }
        }
        return try Dose(amount: text, unit: dose.unit).thousandths
    }

    /// The last day of a pack from `2027-03` (that month's last day) or `2027-03-31`; one already past is refused.
    static func lastDay(_ text: String, today: LocalDate) throws(ServiceError) -> LocalDate {
        let day: LocalDate?
        if text.count == 7, let first = ISO8601.parseDate(text + "-01") {
            day = LocalDate(year: first.year, month: first.month, day: CivilCalendar.daysInMonth(year: first.year, month: first.month))
        } else {
            day = ISO8601.parseDate(text)
        }
        guard let day else {
            throw .invalidInput(parameter: "expires", message: "invalid --expires \(quotedInput(text)): write the date on the pack, 2027-03 or 2027-03-31")
        }
        guard day >= today else {
            throw .invalidInput(parameter: "expires", message: "--expires \(day) is past: a pack that has expired does not count; give a later date, or leave the pack out")
        }
        return day
    }

    /// A reminder's stock, read once: its dose, what is left, and (counted, with a usable rule) how long it lasts.
    private struct Assessment {
        var dose: Dose
        var level: Stock.Level
        var coverage: Stock.Coverage?
    }

    private func assessed(_ reminder: StoredReminder, now: Instant, counted: Bool = true) throws(ServiceError) -> Assessment {
        let dose = try Self.dose(of: reminder)
        let level = try self.level(of: reminder, now: now, counted: counted)
        guard let packs = level.packs else { return Assessment(dose: dose, level: level) }
        let rule: ReminderRule
        do { rule = try reminder.rule.makeRule() } catch { return Assessment(dose: dose, level: level) }  // an unusable rule: the scheduler says why
        let delivery = reminder.delivery
        let coverage = Stock.coverage(
            packs: packs, dose: { delivery.medication.dose(on: $0)?.thousandths ?? dose.thousandths }, rule: rule, zone: try context.settings.zone(named: reminder.timeZone), after: now,
            pauses: delivery.pause)
        return Assessment(dose: dose, level: level, coverage: coverage)
    }

    private func value(of reminder: StoredReminder, now: Instant, counted: Bool = true) throws(ServiceError) -> StockValue {
        let stock = try assessed(reminder, now: now, counted: counted)
        var value = StockValue(
            reminderId: reminder.id, reminderName: reminder.name, left: stock.level.left.map { Double($0) / 1000 }, unit: stock.dose.unit,
            dose: Double(stock.dose.thousandths) / 1000, doses: nil, through: nil, throughLocal: nil, days: nil, outlastsTheRule: false,
            refillDays: reminder.delivery.medication.refillDays ?? MedicationSettings.defaultRefillDays, short: stock.level.short)
        value.packs = Self.packs(stock.level, now: now)
        value.person = reminder.delivery.person.person
        (value.minIntervalSeconds, value.maxPerDay) = (reminder.delivery.medication.limits.minIntervalSeconds, reminder.delivery.medication.limits.maxPerDay)
        guard let coverage = stock.coverage else { return value }
        value.doses = Int(coverage.doses)
        value.outlastsTheRule = coverage.outlastsTheRule
        if let through = coverage.through {
            (value.through, value.throughLocal, value.days) = (through.localDateTime.date.description, through.localISO8601, coverage.days)
        }
        if !coverage.outlastsTheRule {
            value.orderBy = Self.orderBy(coverage, orderDays: reminder.delivery.medication.orderDaysInEffect, today: try zone(of: reminder).localDateTime(at: now).date).description
        }
        return value
    }

    /// The day to order more by: `orderDays` before the last day covered, not before today.
    static func orderBy(_ coverage: Stock.Coverage, orderDays: Int, today: LocalDate) -> LocalDate {
        LocalDate(dayNumber: max(today.dayNumber, (coverage.through?.localDateTime.date.dayNumber ?? today.dayNumber) - orderDays))
    }

    /// The packs as `stock show` lists them: those held, the first to be used first, then those expired that
    /// held some. Nil when there is one pack without a date (a plain count says it all).
    static func packs(_ level: Stock.Level, now: Instant) -> [StockPackValue]? {
        guard let packs = level.packs, packs.contains(where: { $0.expiry != nil }) else { return nil }
        let held = packs.filter { $0.left > 0 && !$0.expired(at: now) }.sorted { ($0.expiredFrom?.secondsSinceEpoch ?? .max) < ($1.expiredFrom?.secondsSinceEpoch ?? .max) }
        return (held + level.expired).map { StockPackValue(left: Double($0.left) / 1000, expires: $0.expiry?.last.description, expired: $0.expired(at: now)) }
    }
}

extension MedicationService {
    func register(in router: inout MethodRouter) {
        router.on(Medication.StockSet.self) { p in .init(stock: try change(.set, key: p.reminder, amount: p.amount, expires: p.expires)) }
        router.on(Medication.StockAdd.self) { p in .init(stock: try change(.added, key: p.reminder, amount: p.amount, expires: p.expires)) }
        router.on(Medication.Stock.self) { p in
            let page = try stocks(key: p.reminder, runningLow: p.runningLow == true, page: (p.after ?? 0, p.limit))
            return .init(stocks: page.stocks, after: page.next)
        }
    }
}

extension MedicationService {
    /// The stores MedicationService holds, and no other: the stock it writes; the reminders and doses it counts
    /// with, read.
    struct Stores: Sendable {
        let stock: StockStore
        let reminders: RemindersStore
        let intake: IntakeStore
    }
}
