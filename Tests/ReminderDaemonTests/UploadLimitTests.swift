import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon

/// Uploads wait in the state folder until imported: at most 4 at once and 1.5 GiB together (1,000 were
/// accepted, and three of about 1 GiB held 3.2 GB for an hour), each dropped 10 minutes unused.
@Suite struct UploadLimitTests {
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("remindd-uploads-\(UUID().uuidString)").path
    }

    static let part = Data(repeating: 7, count: 1000).base64EncodedString()

    @Test func aFifthUploadWaitsForTheOthersAndAnIdleOneIsDropped() throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uploads = Uploads(directory: directory)
        let now = Instant(secondsSinceEpoch: 1_795_000_000)
        let ids = try (0..<4).map { _ in try uploads.append(.init(upload: nil, name: "b.json", data: Self.part), now: now).upload }
        #expect(throws: ServiceError.self) { try uploads.append(.init(upload: nil, name: "b.json", data: Self.part), now: now) }
        uploads.remove(ids[0])
        _ = try uploads.append(.init(upload: nil, name: "b.json", data: Self.part), now: now)
        // Ten minutes later the unused ones are dropped when another begins.
        let later = now.adding(seconds: Uploads.idleSeconds + 1)
        _ = try uploads.append(.init(upload: nil, name: "b.json", data: Self.part), now: later)
        #expect(throws: ServiceError.self) { try uploads.append(.init(upload: ids[1], name: "b.json", data: Self.part), now: later) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).count == 1)
    }

    @Test func uploadsTogetherHoldAtMostTheirTotal() throws {
        let directory = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let uploads = Uploads(directory: directory, maximumTotalBytes: 2500)
        let now = Instant(secondsSinceEpoch: 1_795_000_000)
        let first = try uploads.append(.init(upload: nil, name: "a.json", data: Self.part), now: now).upload
        _ = try uploads.append(.init(upload: first, name: "a.json", data: Self.part), now: now)
        // A second upload's first part would pass the total: refused; the first one's third part too, which drops it.
        #expect(throws: ServiceError.self) { try uploads.append(.init(upload: nil, name: "b.json", data: Self.part), now: now) }
        #expect(throws: ServiceError.self) { try uploads.append(.init(upload: first, name: "a.json", data: Self.part), now: now) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }
}
