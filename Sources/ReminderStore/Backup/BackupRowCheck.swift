import FitnessCore
import GRDB
import ReminderCore

/// Checks a backup's row before it is restored, with the rules the methods that create such rows apply: the
/// column's type, NULL only where the schema allows it, instants between the years 1900 and 9999, counts and
/// lengths in their ranges, and a reminder's name, rule, window and delivery as `Add` checks them. A restored
/// row that `Add` would refuse trapped the daemon later, some at every start.
struct BackupRowCheck {
    private let table: String
    private let columns: [String: ColumnInfo]

    /// Columns that hold an instant (epoch seconds), in any table.
    static let instantColumns: Set<String> = [
        "at", "createdAt", "handledThrough", "scheduledAt", "handledAt", "decidedAt", "dueAt", "usedAt", "announcedAt", "lastAnnouncedAt", "forScheduledAt",
        "escalatedAt", "removedAt",
    ]

    /// Ranges of the numbers that are not instants, by table and column.
    static let ranges: [String: [String: ClosedRange<Double>]] = [
        "firing": ["lateSeconds": 0...Double(Int64.max), "slotsDue": 1...1_000_000, "replanned": 0...1_000_000, "repeats": 0...1_000, "confirmed": 0...1, "againPending": 0...1_000,
                   "escalationPending": 0...1],
        "outcome": ["confirmed": 0...1],
        "intake": ["amount": 1...Double(Dose.maximumThousandths), "forced": 0...1],
        "keptIntake": ["amount": 1...Double(Dose.maximumThousandths), "forced": 0...1],
        "stockChange": ["amount": 0...Double(Stock.maximumThousandths)],
        "workout": ["minutes": 1...1440, "met": 0.1...50, "kcal": 0...100_000],
        "food": ["kcal": 0...100_000],
        "recovery": ["firstDay": -25_567...2_932_896, "lastDay": -25_567...2_932_896],
    ]

    init(table: String, _ db: Database) throws {
        self.table = table
        columns = Dictionary(uniqueKeysWithValues: try db.columns(in: table).map { ($0.name, $0) })
    }

    /// - Throws: ``BackupRefused`` naming the table, the row (its place in the backup, and its id) and the column.
    func check(_ row: [String: StoreValue], index: Int) throws {
        let place = "the backup's table '\(table)', row \(index + 1)" + (row["id"].flatMap { if case .integer(let id) = $0 { " (id \(id))" } else { nil } } ?? "")
        func refuse(_ column: String, _ detail: String) -> BackupRefused {
            BackupRefused(description: "\(place), column \(column): \(detail)")
        }
        for (name, value) in row {
            guard let column = columns[name] else { continue }  // unknown columns are refused by the caller
            let type = column.type.uppercased()
            switch value {
            case .null:
                if column.isNotNull && column.defaultValueSQL == nil { throw refuse(name, "is empty (NULL)") }
            case .integer(let number):
                if type == "TEXT" { throw refuse(name, "\(number) is a number where text belongs") }
                if type == "BOOLEAN", number != 0 && number != 1 { throw refuse(name, "\(number) is neither 0 nor 1") }
                if Self.instantColumns.contains(name), !Instant.storable.contains(Instant(secondsSinceEpoch: number)) {
                    throw refuse(name, "\(number) is not an instant between the years 1900 and 9999")
                }
                if let range = Self.ranges[table]?[name], !range.contains(Double(number)) { throw refuse(name, "\(number) is outside \(range)") }
            case .real(let number):
                guard type == "DOUBLE" || type == "REAL" else { throw refuse(name, "\(number) is a fraction where \(type.lowercased()) belongs") }
                if !number.isFinite { throw refuse(name, "\(number) is not a finite number") }
                if let range = Self.ranges[table]?[name], !range.contains(number) { throw refuse(name, "\(number) is outside \(range)") }
            case .text(let text):
                guard type == "TEXT" else { throw refuse(name, "\"\(text.prefix(40))\" is text where a number belongs") }
                if text.utf8.count > 1 << 20 { throw refuse(name, "is over 1 MiB of text") }
            case .blob:
                throw refuse(name, "is binary data where \(type.lowercased()) belongs")
            }
        }
        if table == "reminder" { try checkReminder(row, refuse: refuse) }
        if table == "profile", row["key"] == .text("weight-kg"), case .text(let weight)? = row["value"], Calories.storedWeight(weight) == nil {
            throw refuse("value", "'\(weight.prefix(40))' is not a weight in kilograms (\(Int(Calories.weightRange.lowerBound))-\(Int(Calories.weightRange.upperBound)))")
        }
        if table == "stockChange", case .text(let kind)? = row["kind"], StockChangeRecord.Kind(rawValue: kind) == nil {
            throw refuse("kind", "'\(kind)' is neither set nor added")
        }
    }

    /// A reminder row as `Add` would check it: its name, rule, window and delivery.
    private func checkReminder(_ row: [String: StoreValue], refuse: (String, String) -> BackupRefused) throws {
        let stored: StoredReminder
        do {
            stored = try StoredReminder(row: Row(row.mapValues { $0.databaseValue as (any DatabaseValueConvertible)? }))
        } catch let unusable as UnusableRow {
            throw refuse(unusable.column, unusable.detail)
        }
        do { _ = try ReminderName.checked(stored.name) } catch { throw refuse("name", error.message) }
        do { _ = try stored.rule.makeRule() } catch { throw refuse("rule", error.message) }
    }
}
