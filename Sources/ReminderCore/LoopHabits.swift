/// Loop Habit Tracker's data, from its CSV export (`Habits.csv`, and each habit's `NNN Name/Checkmarks.csv`)
/// or its SQLite backup (`Habits` and `Repetitions`), and what it becomes in remindd: reminders, logs and
/// rest days, with a line for each thing that has no equivalent. Pure: the caller reads the files.
public enum LoopHabits {
    /// One day's mark of a habit.
    public enum Mark: Hashable, Sendable {
        /// Done (YES_MANUAL).
        case done
        /// Not expected that day, by the habit's frequency (YES_AUTO).
        case notExpected
        case notDone
        /// Skipped: the day did not count for the habit (SKIP).
        case skipped
        case unknown
        /// A numeric habit's amount that day.
        case amount(Double)

        /// A value of a CSV `Checkmarks.csv` (`YES_MANUAL`, ..., or a number: 2, 1, 0, 3/-3, -1 for yes/no
        /// habits of older exports; thousandths for numeric habits).
        init?(csv text: String, numerical: Bool) {
            switch text.trimmingWhitespace() {
            case "YES_MANUAL": self = .done
            case "YES_AUTO": self = .notExpected
            case "NO": self = .notDone
            case "SKIP": self = .skipped
            case "UNKNOWN", "": self = .unknown
            case let number: guard let value = Int(number) else { return nil }; self.init(stored: value, numerical: numerical)
            }
        }

        /// A value of the `Repetitions` table.
        public init(stored value: Int, numerical: Bool) {
            if numerical {
                self = value == -1 ? .unknown : value == 3 || value == -3 ? .skipped : .amount(Double(value) / 1000)
                return
            }
            switch value {
            case 2: self = .done
            case 1: self = .notExpected
            case 0: self = .notDone
            case 3, -3: self = .skipped
            default: self = .unknown
            }
        }
    }

    /// A habit and its marks.
    public struct Habit: Sendable {
        public var name: String
        public var numerical: Bool
        public var archived: Bool
        /// The time and weekdays of its reminder (the SQLite backup has them; the CSV export does not).
        public var reminder: (time: TimeOfDay, weekdays: WeekdaySet)?
        public var marks: [LocalDate: Mark]

        public init(name: String, numerical: Bool, archived: Bool, reminder: (time: TimeOfDay, weekdays: WeekdaySet)?, marks: [LocalDate: Mark]) {
            (self.name, self.numerical, self.archived, self.reminder, self.marks) = (name, numerical, archived, reminder, marks)
        }
    }

    /// The weekdays of a Loop reminder's `reminder_days`: bit 0 is Saturday, 1 Sunday, ..., 6 Friday.
    public static func weekdays(loopBits bits: Int) -> WeekdaySet {
        WeekdaySet((0..<7).filter { bits & (1 << $0) != 0 }.map { Weekday(rawValue: $0 == 0 ? 7 : $0)! })
    }

    /// What an import adds.
    public struct Plan: Sendable {
        /// A reminder for each habit: its rule, and whether it is enabled.
        public var reminders: [(name: String, rule: RuleSpec, enabled: Bool)]
        /// Days each habit was done (or had an amount), by name.
        public var logs: [(name: String, date: LocalDate)]
        /// Days skipped with nothing done: rest days.
        public var restDays: [LocalDate]
        /// What could not be imported, or was imported with less than it had.
        public var notes: [String]
    }

    /// A file Loop did not write, or a value it does not use.
    public struct Refused: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// The columns Loop's `Habits.csv` has had (current, and older exports').
    static let habitColumns: Set<String> = [
        "Position", "Name", "Type", "Question", "Description", "FrequencyNumerator", "FrequencyDenominator", "NumRepetitions", "Interval",
        "Color", "Unit", "Target Type", "Target Value", "Archived?",
    ]

    /// The records of one of Loop's CSV files.
    private static func csvRows(_ text: String, file: String) throws(Refused) -> [[String]] {
        do { return try CSV.records(text).map(\.fields) } catch { throw Refused(description: "\(file) line \(error.line): \(error.message)") }
    }

    /// Habits from a CSV export: `Habits.csv`, and the text of each habit's `Checkmarks.csv` by its folder
    /// name (`001 Meditate`, the position and the name).
    public static func habits(habitsCSV: String, checkmarks: [String: String]) throws(Refused) -> [Habit] {
        let rows = try csvRows(habitsCSV, file: "Habits.csv")
        guard let header = rows.first else { throw Refused(description: "Habits.csv is empty") }
        if let unknown = header.first(where: { !habitColumns.contains($0) }) {
            throw Refused(description: "Habits.csv has a column '\(unknown)' Loop Habit Tracker does not write: is it Loop's export?")
        }
        guard let positionColumn = header.firstIndex(of: "Position"), let nameColumn = header.firstIndex(of: "Name") else {
            throw Refused(description: "Habits.csv has no Position or Name column: is it Loop's export?")
        }
        var habits: [Habit] = []
        for (line, row) in rows.dropFirst().enumerated() where row != [""] {
            func field(_ name: String) -> String? { header.firstIndex(of: name).flatMap { $0 < row.count ? row[$0] : nil } }
            guard row.count == header.count else { throw Refused(description: "Habits.csv line \(line + 2): \(row.count) fields, the header has \(header.count)") }
            let position = row[positionColumn], name = row[nameColumn]
            let numerical = field("Type") == "NUMERICAL"
            let folder = checkmarks.keys.first { $0.hasPrefix(position + " ") || $0 == position }
            var marks: [LocalDate: Mark] = [:]
            if let folder, let text = checkmarks[folder] {
                let entries = try csvRows(text, file: "\(folder)/Checkmarks.csv")
                for (index, entry) in entries.enumerated() where entry != [""] && !(index == 0 && entry.first == "Date") {
                    guard entry.count >= 2, let date = ISO8601.parseDate(entry[0]), let mark = Mark(csv: entry[1], numerical: numerical) else {
                        throw Refused(description: "\(folder)/Checkmarks.csv line \(index + 1): not a date and a value Loop writes")
                    }
                    marks[date] = mark
                }
            }
            habits.append(Habit(name: name, numerical: numerical, archived: field("Archived?") == "true", reminder: nil, marks: marks))
        }
        return habits
    }

    /// What the habits become: a reminder each (weekly on its reminder's days at its time; without a time, a
    /// disabled daily one at 09:00 to set up), a log at noon on each day done, and a rest day on each day
    /// skipped with nothing done.
    public static func plan(_ habits: [Habit]) -> Plan {
        var plan = Plan(reminders: [], logs: [], restDays: [], notes: [])
        var skippedDays: Set<LocalDate> = []
        var activeDays: Set<LocalDate> = []
        for habit in habits {
            if let reminder = habit.reminder, !reminder.weekdays.isEmpty {
                let everyDay = reminder.weekdays.weekdays.count == 7
                let days = reminder.weekdays.weekdays.map { $0.shortName.lowercased() }.joined(separator: ",")
                plan.reminders.append((habit.name, everyDay ? RuleSpec(daily: true, at: reminder.time.description) : RuleSpec(weekly: days, at: reminder.time.description), !habit.archived))
            } else {
                plan.reminders.append((habit.name, RuleSpec(daily: true, at: "09:00"), false))
                plan.notes.append("\(habit.name): no reminder time in Loop's file; added disabled, daily at 09:00: set it with 'remindctl update'")
            }
            var amounts = 0
            for (date, mark) in habit.marks.sorted(by: { $0.key < $1.key }) {
                switch mark {
                case .done: plan.logs.append((habit.name, date)); activeDays.insert(date)
                case .amount(let value) where value > 0: plan.logs.append((habit.name, date)); activeDays.insert(date); amounts += 1
                case .skipped: skippedDays.insert(date)
                default: break
                }
            }
            if amounts > 0 {
                plan.notes.append("\(habit.name): \(amounts) numeric \(amounts == 1 ? "entry" : "entries") imported as logs; remindd keeps no amounts")
            }
        }
        plan.restDays = skippedDays.subtracting(activeDays).sorted()
        let skippedWithActivity = skippedDays.intersection(activeDays).count
        if skippedWithActivity > 0 {
            let days = skippedWithActivity == 1 ? "1 skipped day had another habit done: not a rest day" : "\(skippedWithActivity) skipped days had another habit done: not rest days"
            plan.notes.append(days + " (remindd's rest days are for every habit)")
        }
        return plan
    }
}

extension String {
    func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
