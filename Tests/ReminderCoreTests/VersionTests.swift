import Foundation
import Testing

@testable import ReminderCore

/// The one version: debian/changelog's first line, embedded when built.
@Suite("The version")
struct VersionTests {
    @Test func isWhatTheChangelogsFirstLineHasInParentheses() {
        let changelog = "remindd (1.2.3-1) unstable; urgency=medium\n\n  * A release (closes: #1).\n\n -- A <a@b.c>  Fri, 27 Nov 2026 00:00:00 +0000\n"
        #expect(RemindVersion.version(inChangelog: Array(changelog.utf8)) == "1.2.3-1")
        // Only the first line counts: a later entry's version is an older release.
        #expect(RemindVersion.version(inChangelog: Array("remindd (0.3.0) unstable; urgency=low\nremindd (0.2.0) unstable\n".utf8)) == "0.3.0")
    }

    @Test func theBinariesSayTheVersionOfTheCheckoutsChangelog() throws {
        let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: checkout.appendingPathComponent("debian/changelog"), encoding: .utf8)
        let firstLine = try #require(changelog.split(separator: "\n").first)
        #expect(firstLine.hasPrefix("remindd (\(RemindVersion.current)) "), "\(firstLine)")
    }
}
