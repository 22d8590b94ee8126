import ReminderCore
import Testing

/// Loop Habit Tracker's files as its exporter writes them (HabitsCSVExporter, HabitList.writeCSV), and what
/// they become.
@Suite struct LoopHabitsTests {
    static let habitsCSV = """
        Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?
        001,Meditate,YES_NO,Did you meditate today?,,1,1,#E53935,,,,false
        002,"Push-ups, morning",NUMERICAL,How many?,,1,1,#3949AB,reps,AT_LEAST,20.0,false
        003,Old habit,YES_NO,,,3,7,#00897B,,,,true

        """
    static let checkmarks = [
        "001 Meditate": "Date,Value,Notes\n2026-11-20,YES_MANUAL,\n2026-11-19,SKIP,\n2026-11-18,NO,\n2026-11-17,SKIP,\n",
        "002 Push-ups morning": "Date,Value,Notes\n2026-11-20,25000,\"felt good, \"\"strong\"\"\"\n2026-11-17,12000,\n2026-11-16,0,\n",
        "003 Old habit": "Date,Value\n2026-11-15,2\n2026-11-14,1\n",
    ]

    func date(_ text: String) -> LocalDate { ISO8601.parseDate(text)! }

    @Test func theCSVExportGivesHabitsAndTheirMarks() throws {
        let habits = try LoopHabits.habits(habitsCSV: Self.habitsCSV, checkmarks: Self.checkmarks)
        #expect(habits.map(\.name) == ["Meditate", "Push-ups, morning", "Old habit"])
        #expect(habits.map(\.numerical) == [false, true, false] && habits.map(\.archived) == [false, false, true])
        #expect(habits[0].marks == [date("2026-11-20"): .done, date("2026-11-19"): .skipped, date("2026-11-18"): .notDone, date("2026-11-17"): .skipped])
        #expect(habits[1].marks[date("2026-11-20")] == .amount(25))
        #expect(habits[2].marks == [date("2026-11-15"): .done, date("2026-11-14"): .notExpected])  // an older export's numbers
    }

    @Test func thePlanLogsDaysDoneAndMakesRestDaysOnlyOfSkipsWithNothingDone() throws {
        let plan = LoopHabits.plan(try LoopHabits.habits(habitsCSV: Self.habitsCSV, checkmarks: Self.checkmarks))
        #expect(plan.reminders.map(\.name) == ["Meditate", "Push-ups, morning", "Old habit"])
        #expect(plan.reminders.allSatisfy { !$0.enabled && $0.rule == RuleSpec(daily: true, at: "09:00") })  // the CSV has no times
        #expect(plan.logs.map { "\($0.name) \($0.date)" } == [
            "Meditate 2026-11-20", "Push-ups, morning 2026-11-17", "Push-ups, morning 2026-11-20", "Old habit 2026-11-15",
        ])
        // 19 November: skipped, nothing done. 17 November: skipped, but push-ups were done.
        #expect(plan.restDays == [date("2026-11-19")])
        #expect(plan.notes.contains("Push-ups, morning: 2 numeric entries imported as logs; remindd keeps no amounts"))
        #expect(plan.notes.contains("1 skipped day had another habit done: not a rest day (remindd's rest days are for every habit)"))
    }

    @Test func aReminderFromTheBackupKeepsItsDaysAndTime() {
        // Loop's own test data: "brush teeth" at 08:00 on [false, true, true, true, true, true, false].
        let weekdays = LoopHabits.weekdays(loopBits: 0b0111110)
        #expect(weekdays.weekdays == [.sunday, .monday, .tuesday, .wednesday, .thursday])
        let habit = LoopHabits.Habit(name: "brush teeth", numerical: false, archived: false, reminder: (TimeOfDay(hour: 8, minute: 0)!, weekdays), marks: [:])
        let plan = LoopHabits.plan([habit])
        #expect(plan.reminders.first?.rule == RuleSpec(weekly: "sun,mon,tue,wed,thu", at: "08:00") && plan.reminders.first?.enabled == true)
        #expect(LoopHabits.plan([LoopHabits.Habit(name: "x", numerical: false, archived: false, reminder: (TimeOfDay(hour: 7, minute: 30)!, LoopHabits.weekdays(loopBits: 127)), marks: [:])])
            .reminders.first?.rule == RuleSpec(daily: true, at: "07:30"))
    }

    @Test func aFileLoopDidNotWriteIsRefusedWithItsReason() {
        #expect(throws: LoopHabits.Refused(description: "Habits.csv has a column 'Mood' Loop Habit Tracker does not write: is it Loop's export?")) {
            try LoopHabits.habits(habitsCSV: "Position,Name,Mood\n001,Walk,happy\n", checkmarks: [:])
        }
        #expect(throws: LoopHabits.Refused(description: "001 Walk/Checkmarks.csv line 2: not a date and a value Loop writes")) {
            try LoopHabits.habits(habitsCSV: "Position,Name\n001,Walk\n", checkmarks: ["001 Walk": "Date,Value\nyesterday,MAYBE\n"])
        }
        #expect(throws: LoopHabits.Refused(description: "Habits.csv line 2: a quoted field is not closed")) {
            try LoopHabits.habits(habitsCSV: "Position,Name\n001,\"Walk\n", checkmarks: [:])
        }
    }
}
