import ReminderInterface
import VarlinkProtocol

/// The methods of `io.remindd.Habits`, answered by ``HabitService``.
extension HabitService {
    func register(in router: inout MethodRouter) {
        router.on(Habits.Streak.self) { _ in try streak() }
        router.on(Habits.RestMark.self) { p in
            let marked = try await markRest(from: p.from, to: p.to, reason: p.reason, light: p.light ?? [])
            return .init(dates: marked.dates, alreadyMarked: marked.already.isEmpty ? nil : marked.already)
        }
        router.on(Habits.RestUnmark.self) { p in
            try await unmarkRest(date: p.date)
            return NoFields()
        }
        router.on(Habits.RestStats.self) { _ in try restStats() }
        router.on(Habits.RestList.self) { p in .init(restDays: try restList(from: p.from, to: p.to)) }
        router.on(Habits.FreezeHistory.self) { _ in .init(events: try freezeHistory()) }
        router.on(Habits.Recover.self) { _ in .init(streak: try await recover()) }
        router.on(Habits.Achievements.self) { _ in .init(achievements: try achievements()) }
        router.on(Habits.Calendar.self) { p in try calendar(month: p.month) }
    }
}
