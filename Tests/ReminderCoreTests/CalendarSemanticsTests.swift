import ReminderCore
import Testing

@Suite("Calendar semantics from the README")
struct CalendarSemanticsTests {
    @Test func monthEndClampsTheThirtyFirstToShortMonths() throws {
        let got = try firings(RuleSpec(monthly: "31", at: "09:00"), zone: "UTC", after: "2026-01-31T09:00:00Z", count: 4)
        #expect(got == ["2026-02-28T09:00:00+00:00", "2026-03-31T09:00:00+00:00", "2026-04-30T09:00:00+00:00", "2026-05-31T09:00:00+00:00"])
        let leap = try firings(RuleSpec(monthly: "30", at: "09:00"), zone: "UTC", after: "2028-01-31T00:00:00Z", count: 1)
        #expect(leap == ["2028-02-29T09:00:00+00:00"])
    }

    @Test func slotsClampedOntoTheSameDayFireOnce() throws {
        let got = try firings(RuleSpec(monthly: "29,30,31,last", at: "08:00"), zone: "UTC", after: "2026-02-01T00:00:00Z", count: 4)
        #expect(got == ["2026-02-28T08:00:00+00:00", "2026-03-29T08:00:00+00:00", "2026-03-30T08:00:00+00:00", "2026-03-31T08:00:00+00:00"])
    }

    @Test func gapTimeIsShiftedForwardByTheGap() throws {
        let got = try firings(RuleSpec(daily: true, at: "02:30"), zone: "America/New_York", after: "2026-03-07T12:00:00-05:00", count: 2)
        #expect(got == ["2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"])
    }

    @Test func overlapTimeFiresOnceAtTheFirstOccurrence() throws {
        let got = try firings(RuleSpec(daily: true, at: "01:30"), zone: "America/New_York", after: "2026-10-31T12:00:00-04:00", count: 2)
        #expect(got == ["2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"])
        // Asking again right after the first 01:30 must not return the second 01:30 (EST).
        let again = try firings(RuleSpec(daily: true, at: "01:30"), zone: "America/New_York", after: "2026-11-01T01:30:00-04:00", count: 1)
        #expect(again == ["2026-11-02T01:30:00-05:00"])
    }

    @Test func lordHoweHalfHourOverlapFiresOnce() throws {
        // 2026-04-05 02:00 +11 -> 01:30 +10:30: 01:45 happens twice.
        let got = try firings(RuleSpec(daily: true, at: "01:45"), zone: "Australia/Lord_Howe", after: "2026-04-04T12:00:00+11:00", count: 2)
        #expect(got == ["2026-04-05T01:45:00+11:00", "2026-04-06T01:45:00+10:30"])
    }

    @Test(arguments: [
        // Zones whose DST starts at midnight: 00:00 does not exist on that day.
        ("America/Havana", "2026-03-07T12:00:00-05:00", "2026-03-08T01:00:00-04:00"),
        ("America/Santiago", "2026-09-05T12:00:00-04:00", "2026-09-06T01:00:00-03:00"),
        ("Asia/Beirut", "2026-03-28T12:00:00+02:00", "2026-03-29T01:00:00+03:00"),
    ])
    func midnightThatDoesNotExistFiresAtOne(zoneName: String, after: String, expected: String) throws {
        let got = try firings(RuleSpec(daily: true, at: "00:00"), zone: zoneName, after: after, count: 2)
        #expect(got.first == expected)
        #expect(got.count == 2 && got[1].hasSuffix(String(expected.suffix(6))) && got[1].contains("T00:00:00"))
    }

    @Test func apiaFiresOnceOnEachSideOfTheRemovedDay() throws {
        let rule = try RuleSpec(daily: true, at: "09:00").makeRule()
        let apia = try zone("Pacific/Apia")
        let got = rule.occurrences(after: instant("2011-12-28T12:00:00-10:00"), count: 3, in: apia)
        #expect(got.map(\.localISO8601) == ["2011-12-29T09:00:00-10:00", "2011-12-31T09:00:00+14:00", "2012-01-01T09:00:00+14:00"])
        #expect(got.map(\.scheduledDate.day) == [29, 31, 1])
    }

    @Test func presetsExpandFromTheStart() throws {
        func times(_ preset: String, _ start: String) throws -> [String] {
            try RuleSpec(preset: preset, start: start).makeRule().times.map(\.description)
        }
        #expect(try times("Twice a Day", "20:00") == ["08:00", "20:00"])
        #expect(try times("Three Times a Day", "08:00") == ["08:00", "14:00", "20:00"])
        #expect(try times("Four Times a Day", "08:00") == ["08:00", "12:00", "16:00", "20:00"])
        #expect(try times("Six Times a Day", "08:00") == ["08:00", "10:30", "13:00", "15:30", "18:00", "20:30"])
        let weekly = try RuleSpec(preset: "Three Times Weekly", start: "2026-11-16T07:00").makeRule()  // a Monday
        #expect(weekly.days == .weekly(WeekdaySet([.monday, .wednesday, .friday])))
        let four = try RuleSpec(preset: "Four Times Weekly", start: "2026-11-20T07:00").makeRule()  // a Friday
        #expect(four.days == .weekly(WeekdaySet([.friday, .sunday, .tuesday, .thursday])))
        let twice = try RuleSpec(preset: "Twice Weekly", start: "2026-11-21T07:00").makeRule()  // a Saturday
        #expect(twice.days == .weekly(WeekdaySet([.saturday, .tuesday])))
        let monthly = try RuleSpec(preset: "Twice Monthly", start: "2026-12-20T08:00").makeRule()
        #expect(monthly.days == .monthly(MonthDaySet(days: [20, 5])))
        let three = try RuleSpec(preset: "Three Times Monthly", start: "2026-12-25T08:00").makeRule()
        #expect(three.days == .monthly(MonthDaySet(days: [25, 5, 15])))
    }

    @Test func presetStartIsTheFirstFiring() throws {
        let got = try firings(RuleSpec(preset: "Twice Monthly", start: "2026-12-20T08:00"), zone: "UTC", after: "2026-01-01T00:00:00Z", count: 3)
        #expect(got == ["2026-12-20T08:00:00+00:00", "2027-01-05T08:00:00+00:00", "2027-01-20T08:00:00+00:00"])
    }

    @Test func slotIdentifiersAreReadable() throws {
        func slots(_ spec: RuleSpec, after: String, count: Int = 2) throws -> [String] {
            try spec.makeRule().occurrences(after: instant(after), count: count, in: zone("UTC")).map { $0.slotID(reminderID: "7") }
        }
        #expect(try slots(RuleSpec(daily: true, at: "08:00,20:30"), after: "2026-11-21T00:00:00Z") == ["reminder-7-08-00", "reminder-7-20-30"])
        #expect(try slots(RuleSpec(weekly: "sun,mon", at: "09:00"), after: "2026-11-21T00:00:00Z") == ["reminder-7-w1-09-00", "reminder-7-w2-09-00"])
        #expect(try slots(RuleSpec(monthly: "15,last", at: "10:00"), after: "2026-11-01T00:00:00Z") == ["reminder-7-d15-10-00", "reminder-7-dlast-10-00"])
        #expect(try slots(RuleSpec(monthlyOn: "2nd-sun", at: "10:00"), after: "2026-11-01T00:00:00Z", count: 1) == ["reminder-7-m2sun-10-00"])
        #expect(try slots(RuleSpec(monthlyOn: "last-sun", at: "10:00"), after: "2026-11-01T00:00:00Z", count: 1) == ["reminder-7-mlastsun-10-00"])
        #expect(try slots(RuleSpec(yearly: "02-29", at: "09:00"), after: "2026-11-01T00:00:00Z", count: 1) == ["reminder-7-y0229-09-00"])
        #expect(try slots(RuleSpec(every: "3d", at: "07:00", start: "2026-12-01"), after: "2026-11-01T00:00:00Z", count: 1) == ["reminder-7-e3d-07-00"])
        #expect(try slots(RuleSpec(once: "2026-12-24T18:00:30"), after: "2026-11-01T00:00:00Z") == ["reminder-7-once-20261224-18-00-30"])
    }

    @Test func nthWeekdayAndMissingFifth() throws {
        let second = try firings(RuleSpec(monthlyOn: "2nd-sun", at: "02:30"), zone: "America/New_York", after: "2026-02-01T00:00:00-05:00", count: 2)
        #expect(second == ["2026-02-08T02:30:00-05:00", "2026-03-08T03:30:00-04:00"])
        // Fifth Fridays of 2026: Jan 30, May 29, Jul 31, Oct 30.
        let fifth = try firings(RuleSpec(monthlyOn: "5th-fri", at: "12:00"), zone: "UTC", after: "2026-01-01T00:00:00Z", count: 4)
        #expect(fifth.map { String($0.prefix(10)) } == ["2026-01-30", "2026-05-29", "2026-07-31", "2026-10-30"])
    }

    @Test func everyNDaysAndWeeksCountFromTheStart() throws {
        let days = try firings(RuleSpec(every: "3d", at: "07:00", start: "2026-12-01"), zone: "UTC", after: "2026-11-01T00:00:00Z", count: 3)
        #expect(days == ["2026-12-01T07:00:00+00:00", "2026-12-04T07:00:00+00:00", "2026-12-07T07:00:00+00:00"])
        let weeks = try firings(RuleSpec(weekly: "sun", every: "2w", at: "01:30", start: "2024-10-20"), zone: "Europe/London", after: "2024-10-01T00:00:00Z", count: 3)
        #expect(weeks == ["2024-10-20T01:30:00+01:00", "2024-11-03T01:30:00+00:00", "2024-11-17T01:30:00+00:00"])
        let monThu = try firings(RuleSpec(weekly: "mon,thu", every: "2w", at: "18:00", start: "2026-11-18"), zone: "UTC", after: "2026-11-01T00:00:00Z", count: 4)
        #expect(monThu.map { String($0.prefix(10)) } == ["2026-11-19", "2026-11-30", "2026-12-03", "2026-12-14"])
    }

    @Test func startUntilAndSkipBoundTheRule() throws {
        let spec = RuleSpec(daily: true, at: "08:00", start: "2026-12-01", until: "2026-12-05", skip: "2026-12-02,2026-12-04")
        let got = try firings(spec, zone: "UTC", after: "2026-11-01T00:00:00Z", count: 10)
        #expect(got.map { String($0.prefix(10)) } == ["2026-12-01", "2026-12-03", "2026-12-05"])
    }

    @Test func onceFiresOnceToTheSecond() throws {
        let got = try firings(RuleSpec(once: "2026-12-24T18:00:30"), zone: "Europe/Berlin", after: "2026-12-01T00:00:00Z", count: 5)
        #expect(got == ["2026-12-24T18:00:30+01:00"])
        #expect(try firings(RuleSpec(once: "2026-12-24T18:00:30"), zone: "UTC", after: "2026-12-24T18:00:30Z") == [])
    }

    @Test func yearlyOnTheTwentyNinthInLeapYears() throws {
        let got = try firings(RuleSpec(yearly: "02-29", at: "09:00"), zone: "UTC", after: "2027-03-01T00:00:00Z", count: 2)
        #expect(got == ["2028-02-29T09:00:00+00:00", "2029-02-28T09:00:00+00:00"])
    }

    @Test func farFutureUsesThePeriodicRules() throws {
        // Past the tzdata table and past the 400-year fold, DST still follows the POSIX rule.
        let got = try firings(RuleSpec(daily: true, at: "02:30"), zone: "America/New_York", after: "2826-03-07T12:00:00-05:00", count: 1)
        #expect(got == ["2826-03-08T03:30:00-04:00"])  // second Sunday of March 2826 is the 8th
        let summer = try zone("America/New_York").offset(at: instant("3000-07-01T00:00:00Z"))
        #expect(summer == -4 * 3600)
    }
}

@Suite("A rule updated in part")
struct RuleUpdateTests {
    let weekly = RuleSpec(weekly: "mon,wed", at: "08:00", start: "2026-12-01", until: "2027-06-30", skip: "2026-12-25")

    @Test func theTimesChangeAndTheDaysStay() {
        #expect(weekly.updated(by: RuleSpec(at: "10:00")) == RuleSpec(weekly: "mon,wed", at: "10:00", start: "2026-12-01", until: "2027-06-30", skip: "2026-12-25"))
    }

    @Test func theKindChangesAsOnePartAndTheTimesStay() {
        #expect(weekly.updated(by: RuleSpec(monthly: "1,15")) == RuleSpec(monthly: "1,15", at: "08:00", start: "2026-12-01", until: "2027-06-30", skip: "2026-12-25"))
        let fortnightly = RuleSpec(weekly: "mon", every: "2w", at: "08:00")
        #expect(fortnightly.updated(by: RuleSpec(daily: true)) == RuleSpec(daily: true, at: "08:00"))
    }

    @Test func aOneShotKeepsNothingButItself() {
        #expect(weekly.updated(by: RuleSpec(once: "2026-12-24T18:00")) == RuleSpec(once: "2026-12-24T18:00"))
    }

    @Test func nothingGivenChangesNothing() {
        #expect(weekly.updated(by: RuleSpec()) == weekly)
    }
}
