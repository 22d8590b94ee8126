import ReminderInterface
import VarlinkProtocol

/// The methods of `io.remindd.Routines`, answered by ``RoutineService``.
extension RoutineService {
    func register(in router: inout MethodRouter) {
        router.on(Routines.List.self) { _ in .init(routines: routines().map(routineValue)) }
        router.on(Routines.Show.self) { p in .init(routine: routineValue(try routine(p.id))) }
        router.on(Routines.Select.self) { p in .init(selection: try await select(p.id, start: p.start, at: p.at)) }
        router.on(Routines.Current.self) { _ in .init(selection: try current()) }
        router.on(Routines.Clear.self) { _ in
            try await clear()
            return NoFields()
        }
    }
}
