import ReminderCore
import ReminderDaemon
import ReminderDaemonTesting
import ReminderInterface
import Testing
import VarlinkProtocol

/// The daemon answers exactly the methods of the catalogue, and names errors in the interface called.
@Suite struct RouterTests {
    @Test func theDaemonRegistersEveryMethodOfTheCatalogueAndNoOther() async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_780_000_000))
        let catalogue = Set(Catalogue.interfaces.flatMap(\.methods).map { $0.qualifiedName })
        #expect(daemon.current.router.methods == catalogue)
        #expect(catalogue.count == Catalogue.interfaces.map { $0.methods.count }.reduce(0, +), "two methods share a name")
    }

    @Test func errorsCarryTheCalledInterfacesName() async throws {
        let daemon = try await TestDaemon(now: Instant(secondsSinceEpoch: 1_780_000_000))
        await #expect { try await daemon.call(Fitness.ProfileSet.self, .init(weight: "heavy")) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Fitness.InvalidInput" && ($0 as? VarlinkError)?.string("parameter") == "weight"
        }
        await #expect { try await daemon.call(Habits.RestUnmark.self, .init(date: "someday")) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Habits.InvalidTime"
        }
        await #expect { try await daemon.call(Reminders.Get.self, .init(reminder: "nothing")) } throws: {
            ($0 as? VarlinkError)?.name == "io.remindd.Reminders.ReminderNotFound"
        }
        let profile = try await daemon.call(Fitness.ProfileGet.self, NoFields())
        #expect(profile.weightKg == 70 && !profile.weightSet)
        _ = try await daemon.call(Fitness.ProfileSet.self, .init(weight: "180lb"))
        let set = try await daemon.call(Fitness.ProfileGet.self, NoFields())
        #expect(set.weightKg == 81.6 && set.weightSet)  // 180 lb, to 0.1 kg
    }
}
