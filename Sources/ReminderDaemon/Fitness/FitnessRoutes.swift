/// The fitness methods of `io.remindd.Reminders`: their parameters and how each maps onto ``FitnessService``.
extension FitnessService {
    struct TextParameters: Decodable { let text: String }
    struct CategoryParameters: Decodable { let category: String? }
    struct NameParameters: Decodable { let name: String }
    struct WorkoutAddParameters: Decodable { let exercise: String; let minutes: Int; let intensity: String?; let at: String? }
    struct WorkoutEditParameters: Decodable { let id: Int64; let minutes: Int?; let intensity: String? }
    struct IDParameters: Decodable { let id: Int64 }
    struct FoodAddParameters: Decodable { let name: String; let kcal: Int; let at: String? }
    struct DayParameters: Decodable { let date: String? }
    struct WeightParameters: Decodable { let weight: String }
    struct RangeParameters: Decodable { let from: String; let to: String? }

    func register(in router: inout MethodRouter) {
        router.method("ExerciseSearch", TextParameters.self) { p in ["exercises": searchExercises(p.text)] }
        router.method("ExerciseList", CategoryParameters.self) { p in ["exercises": try listExercises(category: p.category)] }
        router.method("ExerciseShow", NameParameters.self) { p in ["exercise": try showExercise(p.name)] }
        router.method("WorkoutAdd", WorkoutAddParameters.self) { p in
            ["workout": try await addWorkout(exercise: p.exercise, minutes: p.minutes, intensity: p.intensity, at: p.at)]
        }
        router.method("WorkoutEdit", WorkoutEditParameters.self) { p in
            ["workout": try await editWorkout(id: p.id, minutes: p.minutes, intensity: p.intensity)]
        }
        router.method("WorkoutDelete", IDParameters.self) { p in
            try await deleteEntry(.workout, id: p.id)
            return EmptyReply()
        }
        router.method("FoodDelete", IDParameters.self) { p in
            try await deleteEntry(.food, id: p.id)
            return EmptyReply()
        }
        router.method("FoodAdd", FoodAddParameters.self) { p in ["food": try addFood(name: p.name, kcal: p.kcal, at: p.at)] }
        router.method("Day", DayParameters.self) { p in try day(p.date) }
        router.method("ProfileSet", WeightParameters.self) { p in ["weightKg": try setWeight(p.weight)] }
        router.method("DayHistory", RangeParameters.self) { p in ["days": try days(from: p.from, to: p.to)] }
    }
}
