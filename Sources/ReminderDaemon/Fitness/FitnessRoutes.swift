import ReminderInterface
import VarlinkProtocol

/// The methods of `io.remindd.Fitness`, answered by ``FitnessService``.
extension FitnessService {
    func register(in router: inout MethodRouter) {
        router.on(Fitness.ExerciseSearch.self) { p in .init(exercises: searchExercises(p.text)) }
        router.on(Fitness.ExerciseList.self) { p in .init(exercises: try listExercises(category: p.category)) }
        router.on(Fitness.ExerciseShow.self) { p in .init(exercise: try showExercise(p.name)) }
        router.on(Fitness.WorkoutAdd.self) { p in
            .init(workout: try await addWorkout(exercise: p.exercise, minutes: p.minutes, intensity: p.intensity, at: p.at))
        }
        router.on(Fitness.WorkoutEdit.self) { p in
            .init(workout: try await editWorkout(id: p.id, minutes: p.minutes, intensity: p.intensity))
        }
        router.on(Fitness.WorkoutDelete.self) { p in .init(workout: try await deleteEntry(.workout, id: p.id)) }
        router.on(Fitness.FoodDelete.self) { p in .init(food: try await deleteEntry(.food, id: p.id)) }
        router.on(Fitness.FoodAdd.self) { p in .init(food: try addFood(name: p.name, kcal: p.kcal, at: p.at)) }
        router.on(Fitness.Day.self) { p in try day(p.date) }
        router.on(Fitness.DayHistory.self) { p in .init(days: try days(from: p.from, to: p.to)) }
        router.on(Fitness.ProfileGet.self) { _ in try profile() }
        router.on(Fitness.ProfileSet.self) { p in try setProfile(weight: p.weight, name: p.name) }
    }
}
