/// The habit methods of `io.remindd.Reminders`: their parameters and how each maps onto ``HabitService``.
extension HabitService {
    struct RestMarkParameters: Decodable { let from: String; let to: String?; let reason: String?; let light: [String]? }
    struct DateParameters: Decodable { let date: String }
    struct RangeParameters: Decodable { let from: String?; let to: String? }
    struct MonthParameters: Decodable { let month: String? }

    func register(in router: inout MethodRouter) {
        router.method("Streak") { try streak() }
        router.method("RestMark", RestMarkParameters.self) { p in
            ["dates": try await markRest(from: p.from, to: p.to, reason: p.reason, light: p.light ?? [])]
        }
        router.method("RestUnmark", DateParameters.self) { p in
            try await unmarkRest(date: p.date)
            return EmptyReply()
        }
        router.method("RestStats") { try restStats() }
        router.method("RestList", RangeParameters.self) { p in ["restDays": try restList(from: p.from, to: p.to)] }
        router.method("FreezeHistory") { ["events": try freezeHistory()] }
        router.method("Recover") { ["streak": try await recover()] }
        router.method("Achievements") { ["achievements": try achievements()] }
        router.method("Calendar", MonthParameters.self) { p in try calendar(month: p.month) }
    }
}
