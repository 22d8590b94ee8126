import ReminderCore
import Testing

/// config.toml's quiet-hours: a span of the local day that may wrap past midnight; what it quiets.
@Suite("Quiet hours")
struct QuietHoursTests {
    func seconds(_ text: String) -> Int { ISO8601.parseTime(text)!.secondsSinceMidnight }

    @Test func aSpanPastMidnightHoldsFromItsStartToBeforeItsEnd() throws {
        let night = try #require(QuietHours("22:00-07:00"))
        #expect(night.description == "22:00-07:00")
        for inside in ["22:00", "23:59:59", "00:00", "06:59:59"] { #expect(night.contains(secondsSinceMidnight: seconds(inside)), "\(inside)") }
        for outside in ["07:00", "12:00", "21:59:59"] { #expect(!night.contains(secondsSinceMidnight: seconds(outside)), "\(outside)") }
        let lunch = try #require(QuietHours("12:30-13:30"))
        #expect(lunch.contains(secondsSinceMidnight: seconds("12:30")) && !lunch.contains(secondsSinceMidnight: seconds("13:30")))
        #expect(!lunch.contains(secondsSinceMidnight: seconds("23:00")))
    }

    @Test func badSpansAreRefused() {
        for text in ["25:00-07:00", "22:00", "22:00-22:00", "22:00-07:00-08:00", "10pm-7am", "22:0-07:00", "", "-"] {
            #expect(QuietHours(text) == nil, "\(text)")
        }
    }

    /// A reminder without a dose is quieted, a dose rings through; each reminder may say otherwise.
    @Test func dosesRingThroughUnlessTheyRespectIt() throws {
        let night = try #require(QuietHours("22:00-07:00"))
        let at = seconds("23:00")
        var habit = Delivery()
        var dose = Delivery(medication: MedicationSettings(dose: Dose(thousandths: 1000, unit: "tablet")))
        #expect(night.quiets(habit, atSecondsSinceMidnight: at) && !night.quiets(dose, atSecondsSinceMidnight: at))
        #expect(!night.quiets(habit, atSecondsSinceMidnight: seconds("08:00")))
        habit.notification.quietHours = .ignore
        dose.notification.quietHours = .respect
        #expect(!night.quiets(habit, atSecondsSinceMidnight: at) && night.quiets(dose, atSecondsSinceMidnight: at))
    }
}

/// An event's alarm says the event's own time: ``AlarmOffset/instance(ofAlarmAt:in:)`` undoes
/// ``AlarmOffset/instant(for:in:)``, across a change of summer time too.
@Suite("Alarm offsets undone")
struct AlarmOffsetTests {
    @Test(arguments: ["-PT15M", "PT10M", "-P1D", "-P1DT2H", "-PT36H", "-P1W"])
    func theEventIsFoundFromItsAlarm(_ text: String) throws {
        let berlin = try zone("Europe/Berlin")
        let offset = try AlarmOffset(parsing: text)
        // Around the end of summer time in Berlin (2026-10-25 03:00 CEST -> 02:00 CET) and an ordinary day.
        for start in ["2026-10-25T09:30", "2026-10-26T01:00", "2026-11-24T21:34"] {
            let local = try #require(ISO8601.parseDateTime(start))
            let alarm = offset.instant(for: local, in: berlin)
            #expect(offset.instance(ofAlarmAt: alarm, in: berlin) == berlin.resolve(local), "\(text) \(start)")
        }
    }
}
