import Glibc
import Testing

@testable import RemindCommands

/// `--sound` as a path: a relative one and one from the home folder become absolute (the daemon does not share
/// the caller's folder); a theme's name stays a name.
@Suite struct SoundPathTests {
    @Test func aPathIsMadeAbsoluteAndANameIsLeft() throws {
        let home = try #require(getenv("HOME").map { String(cString: $0) })
        #expect(NotificationOptions.absolute("~/sounds/alarm.oga", in: "/work") == home + "/sounds/alarm.oga")
        #expect(NotificationOptions.absolute("alarm.oga", in: "/work/here") == "/work/here/alarm.oga")
        #expect(NotificationOptions.absolute("./sounds/../alarm.oga", in: "/work") == "/work/alarm.oga")
        #expect(NotificationOptions.absolute("/usr/share/sounds/a.oga", in: "/work") == "/usr/share/sounds/a.oga")
        #expect(NotificationOptions.absolute("alarm-clock-elapsed", in: "/work") == "alarm-clock-elapsed")
    }
}
