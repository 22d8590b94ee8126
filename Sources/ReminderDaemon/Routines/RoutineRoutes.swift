/// The routine methods of `io.remindd.Reminders`: their parameters and how each maps onto ``RoutineService``.
extension RoutineService {
    struct RoutineParameters: Decodable { let id: String }
    struct SelectParameters: Decodable { let id: String; let starts: String?; let remind: String? }

    func register(in router: inout MethodRouter) {
        router.method("RoutineList") { ["routines": routines().map(routineValue)] }
        router.method("RoutineShow", RoutineParameters.self) { p in ["routine": routineValue(try routine(p.id))] }
        router.method("RoutineSelect", SelectParameters.self) { p in
            ["selection": try await select(p.id, starts: p.starts, remind: p.remind)]
        }
        router.method("RoutineCurrent") { try current().map { ["selection": $0] } ?? [:] }
        router.method("RoutineClear") {
            try await clear()
            return EmptyReply()
        }
    }
}
