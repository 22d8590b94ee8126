import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Numbers that make arithmetic trap (NaN, infinities, values past Int) are refused where they enter: a
/// profile weight of NaN or 1e309 from a backup made every later `workout add` crash the daemon.
@Suite("Hostile numbers")
struct HostileNumberTests {
    @Test(arguments: ["nan", "1e309", "inf", "-5", "1e18", "heavy"])
    func aBackupWithAWeightThatIsNotOneIsRefusedWithItsPlace(_ weight: String) async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.call("ProfileSet", ["weight": "82kg"])
        var backup = try await daemon.exportBackup()
        guard case .object(var tables)? = backup["tables"], case .array(let rows)? = tables["profile"] else { throw CancellationError() }
        tables["profile"] = .array(rows.map { row in
            guard case .object(var fields) = row, fields["key"] == .string("weight-kg") else { return row }
            fields["value"] = .string(weight)
            return .object(fields)
        })
        backup["tables"] = .object(tables)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-weight-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(VarlinkWire.encode(JSONValue.object(backup))).write(to: URL(fileURLWithPath: path))
        let fresh = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        await #expect { try await fresh.call(Backup.Import.self, .init(path: path)) } throws: {
            let message = ($0 as? VarlinkError)?.string("message") ?? ""
            return message.contains("'profile'") && message.contains("column value") && message.contains("not a weight in kilograms")
        }
    }

    @Test(arguments: ["nan", "1e309", "-inf"])
    func aStoredWeightThatIsNotOneIsNotComputedWith(_ weight: String) async throws {
        let daemon = try await TestDaemon(now: instant("2026-03-02T07:00:00Z"))
        try await daemon.database.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO profile (key, value) VALUES ('weight-kg', ?)", arguments: [weight])
        }
        let added = try await daemon.call("WorkoutAdd", ["exercise": "running", "minutes": 30, "intensity": "moderate"], as: JSONValue.self)
        let profile = try await daemon.call("ProfileGet", as: [String: JSONValue].self)
        #expect(profile["weightSet"] == .bool(false))
        #expect("\(added)".contains("kcal"))
    }
}
