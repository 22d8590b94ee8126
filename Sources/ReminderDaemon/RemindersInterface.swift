import ReminderCore
import ReminderInterface
import VarlinkProtocol
import VarlinkServer

/// `io.remindd.Reminders` over Varlink: decodes each call's parameters, runs it on the service, encodes the reply.
public struct RemindersInterface: VarlinkHandler {
    public static let name = RemindersAPI.interface

    let service: ReminderService

    public init(service: ReminderService) {
        self.service = service
    }

    struct Key: Decodable { let reminder: String }
    struct AddParameters: Decodable { let name: String; let rule: RuleSpec; let timeZone: String?; let enabled: Bool? }
    struct UpdateParameters: Decodable { let reminder: String; let name: String?; let rule: RuleSpec?; let timeZone: String? }
    struct PreviewParameters: Decodable { let rule: RuleSpec; let timeZone: String?; let after: String?; let count: Int? }
    struct CountParameters: Decodable { let count: Int? }
    struct LogParameters: Decodable { let reminder: String; let at: String? }
    struct SnoozeParameters: Decodable { let reminder: String; let minutes: Int }
    struct HistoryParameters: Decodable { let since: String?; let reminder: String?; let limit: Int? }
    struct RestMarkParameters: Decodable { let from: String; let to: String?; let reason: String?; let light: [String]? }
    struct DateParameters: Decodable { let date: String }
    struct MonthParameters: Decodable { let month: String? }
    struct TextParameters: Decodable { let text: String }
    struct CategoryParameters: Decodable { let category: String? }
    struct NameParameters: Decodable { let name: String }
    struct WorkoutAddParameters: Decodable { let exercise: String; let minutes: Int; let intensity: String?; let at: String? }
    struct WorkoutEditParameters: Decodable { let id: Int64; let minutes: Int?; let intensity: String? }
    struct IDParameters: Decodable { let id: Int64 }
    struct FoodAddParameters: Decodable { let name: String; let kcal: Int; let at: String? }
    struct DayParameters: Decodable { let date: String? }
    struct WeightParameters: Decodable { let weight: String }
    struct RoutineParameters: Decodable { let id: String }
    struct RangeParameters: Decodable { let from: String; let to: String? }
    struct RoutineSelectParameters: Decodable { let id: String; let starts: String?; let remind: String? }

    public func handle(_ call: VarlinkCall, reply: @Sendable (VarlinkReply) async throws -> Void) async throws {
        func send(_ value: some Encodable) async throws {
            try await reply(VarlinkReply(parameters: try JSONValue(encoding: value)))
        }
        do {
            switch call.member {
            case "Add":
                let p = try call.decodeParameters(AddParameters.self)
                try await send(["reminder": try await service.add(name: p.name, rule: p.rule, timeZone: p.timeZone, enabled: p.enabled ?? true)])
            case "Update":
                let p = try call.decodeParameters(UpdateParameters.self)
                try await send(["reminder": try await service.update(key: p.reminder, name: p.name, rule: p.rule, timeZone: p.timeZone)])
            case "Remove":
                try await service.remove(key: try call.decodeParameters(Key.self).reminder)
                try await reply(VarlinkReply(parameters: .object([:])))
            case "Enable", "Disable":
                let key = try call.decodeParameters(Key.self).reminder
                try await send(["reminder": try await service.setEnabled(key: key, call.member == "Enable")])
            case "List":
                try await send(["reminders": try await service.list()])
            case "Get":
                try await send(["reminder": try await service.get(key: try call.decodeParameters(Key.self).reminder)])
            case "Preview":
                let p = try call.decodeParameters(PreviewParameters.self)
                try await send(["firings": try await service.preview(rule: p.rule, timeZone: p.timeZone, after: p.after, count: p.count ?? 10)])
            case "Next":
                try await send(["firings": try await service.next(count: try call.decodeParameters(CountParameters.self).count ?? 10)])
            case "Log":
                let p = try call.decodeParameters(LogParameters.self)
                let (id, instant, local) = try await service.log(key: p.reminder, at: p.at)
                try await send(LogReply(reminderId: id, utc: instant.description, local: local))
            case "Snooze":
                let p = try call.decodeParameters(SnoozeParameters.self)
                try await send(["firing": try await service.snooze(key: p.reminder, minutes: p.minutes)])
            case "History":
                let p = try call.decodeParameters(HistoryParameters.self)
                try await send(["entries": try await service.history(since: p.since, key: p.reminder, limit: p.limit ?? 1000)])
            case "Status":
                let s = try await service.status()
                try await send(StatusValue(
                    version: RemindersAPI.version, reminders: s.total, enabled: s.enabled, next: s.next, status: s.status,
                    storePath: await service.storePath, journal: s.journal, systemTimeZone: s.zone))
            case "Streak":
                try await send(try await service.streak())
            case "RestMark":
                let p = try call.decodeParameters(RestMarkParameters.self)
                try await send(["dates": try await service.markRest(from: p.from, to: p.to, reason: p.reason, light: p.light ?? [])])
            case "RestUnmark":
                try await service.unmarkRest(date: try call.decodeParameters(DateParameters.self).date)
                try await reply(VarlinkReply(parameters: .object([:])))
            case "RestStats":
                try await send(try await service.restStats())
            case "FreezeHistory":
                try await send(["events": try await service.freezeHistory()])
            case "Recover":
                try await send(["streak": try await service.recover()])
            case "Achievements":
                try await send(["achievements": try await service.achievements()])
            case "Calendar":
                try await send(try await service.calendar(month: try call.decodeParameters(MonthParameters.self).month))
            case "ExerciseSearch":
                try await send(["exercises": await service.searchExercises(try call.decodeParameters(TextParameters.self).text)])
            case "ExerciseList":
                try await send(["exercises": try await service.listExercises(category: try call.decodeParameters(CategoryParameters.self).category)])
            case "ExerciseShow":
                try await send(["exercise": try await service.showExercise(try call.decodeParameters(NameParameters.self).name)])
            case "WorkoutAdd":
                let p = try call.decodeParameters(WorkoutAddParameters.self)
                try await send(["workout": try await service.addWorkout(exercise: p.exercise, minutes: p.minutes, intensity: p.intensity, at: p.at)])
            case "WorkoutEdit":
                let p = try call.decodeParameters(WorkoutEditParameters.self)
                try await send(["workout": try await service.editWorkout(id: p.id, minutes: p.minutes, intensity: p.intensity)])
            case "WorkoutDelete", "FoodDelete":
                try await service.deleteEntry(call.member == "FoodDelete" ? .food : .workout, id: try call.decodeParameters(IDParameters.self).id)
                try await reply(VarlinkReply(parameters: .object([:])))
            case "FoodAdd":
                let p = try call.decodeParameters(FoodAddParameters.self)
                try await send(["food": try await service.addFood(name: p.name, kcal: p.kcal, at: p.at)])
            case "Day":
                try await send(try await service.day(try call.decodeParameters(DayParameters.self).date))
            case "ProfileSet":
                try await send(["weightKg": try await service.setWeight(try call.decodeParameters(WeightParameters.self).weight)])
            case "DayHistory":
                let p = try call.decodeParameters(RangeParameters.self)
                try await send(["days": try await service.days(from: p.from, to: p.to)])
            case "RoutineList":
                try await send(["routines": await service.routineList()])
            case "RoutineShow":
                try await send(["routine": try await service.showRoutine(try call.decodeParameters(RoutineParameters.self).id)])
            case "RoutineSelect":
                let p = try call.decodeParameters(RoutineSelectParameters.self)
                try await send(["selection": try await service.selectRoutine(p.id, starts: p.starts, remind: p.remind)])
            case "RoutineCurrent":
                if let selection = try await service.currentRoutine() {
                    try await send(["selection": selection])
                } else {
                    try await reply(VarlinkReply(parameters: .object([:])))
                }
            case "RoutineClear":
                try await service.clearRoutine()
                try await reply(VarlinkReply(parameters: .object([:])))
            case "Watch":
                guard call.more == true else { throw VarlinkError.expectedMore() }
                let (id, stream) = await service.addWatcher()
                do {
                    for await entry in stream {
                        try await reply(VarlinkReply(parameters: try JSONValue(encoding: ["entry": entry]), continues: true))
                    }
                } catch {
                    await service.removeWatcher(id)  // the watcher went away
                    throw error
                }
                await service.removeWatcher(id)
            default:
                throw VarlinkError.methodNotFound(call.method)
            }
        } catch let error as ServiceError {
            throw error.varlinkError
        }
    }
}

extension RemindersInterface {
    /// The interface's IDL text (`io.remindd.Reminders.varlink`, embedded at build time), for GetInterfaceDescription.
    public static let idl = String(decoding: PackageResources.io_remindd_Reminders_varlink, as: UTF8.self)
}
