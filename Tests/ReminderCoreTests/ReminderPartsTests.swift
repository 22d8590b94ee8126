import Foundation
import ReminderCore
import Testing

/// A reminder made of parts (``Delivery``): each part's keys side by side in one flat object stored, on the wire and
/// in replies; rows stored before the parts read the same; each part checks its own options and says what travels
/// in a synced item.
@Suite("Reminder parts")
struct ReminderPartsTests {
    /// Every setting at once, as the `delivery` column held it before it was made of parts.
    static let storedBefore = #"""
        {"repeatSeconds":600,"repeatMax":3,"command":["/bin/echo","a b"],"critical":true,"calendar":"Work","doseThousandths":2000,"doseUnit":"tablet",
         "refillDays":5,"escalateCommand":["/bin/tell"],"escalateAfterSeconds":1800,"minIntervalSeconds":21600,"maxPerDay":3}
        """#

    static let everything = Delivery(
        repeating: RepeatSettings(plan: RepeatPlan(intervalSeconds: 600, maximum: 3)), hook: HookSettings(command: ["/bin/echo", "a b"]),
        notification: NotificationSettings(urgency: .critical),
        medication: {
            var medication = MedicationSettings(dose: Dose(thousandths: 2000, unit: "tablet"))
            (medication.refillDays, medication.limits) = (5, DoseLimits(minIntervalSeconds: 21600, maxPerDay: 3))
            return medication
        }(),
        escalation: EscalationSettings(command: ["/bin/tell"], afterSeconds: 1800), calendar: "Work")

    @Test func aRowStoredBeforeThePartsReadsTheSameAndIsWrittenWithTheSameKeys() throws {
        let read = try JSONDecoder().decode(Delivery.self, from: Data(Self.storedBefore.utf8))
        #expect(read == Self.everything)
        #expect(read.problem == nil)
        let written = try JSONEncoder().encode(read)
        let keys = try #require(JSONSerialization.jsonObject(with: written) as? [String: Any]).keys
        let keysBefore = try #require(JSONSerialization.jsonObject(with: Data(Self.storedBefore.utf8)) as? [String: Any]).keys
        #expect(Set(keys) == Set(keysBefore))
        #expect(try JSONDecoder().decode(Delivery.self, from: written) == read)
        #expect(String(decoding: try JSONEncoder().encode(Delivery()), as: UTF8.self) == "{}", "nothing set: nothing written")
    }

    @Test func addTakesEachPartsKeysFlatAndAppliesThem() throws {
        let wire = #"""
            {"repeat":"10m","repeatMax":3,"command":["/bin/echo","a b"],"urgency":"critical","dose":"2","unit":"tablet","refillDays":5,
             "escalateCommand":["/bin/tell"],"escalateAfter":"30m","minInterval":"6h","maxPerDay":3}
            """#
        let change = try JSONDecoder().decode(Delivery.Change.self, from: Data(wire.utf8))
        #expect(change.commands.map(\.parameter) == ["command", "escalateCommand"])
        var expected = Self.everything
        expected.calendar = nil
        #expect(try Delivery().applying(change, adding: true) == expected)
        // Written back, the same flat keys.
        #expect(try JSONDecoder().decode(Delivery.Change.self, from: JSONEncoder().encode(change)) == change)
    }

    @Test func updateChangesOnlyWhatItGivesAndEmptyValuesRemove() throws {
        let changed = try Self.everything.applying(Delivery.Change(
            repeating: .init(repeatMax: 0), notification: .init(urgency: "normal"), medication: .init(refillDays: 0, minInterval: ""),
            escalation: .init(escalateAfter: "")), adding: false)
        #expect(changed.repeating.plan == RepeatPlan(intervalSeconds: 600, maximum: nil))
        #expect(changed.notification.urgency == .normal && changed.hook == Self.everything.hook && changed.calendar == "Work")
        #expect(changed.medication.limits == DoseLimits(minIntervalSeconds: nil, maxPerDay: 3) && changed.medication.refillDays == nil)
        #expect(changed.medication.dose == Self.everything.medication.dose)
        #expect(changed.escalation == EscalationSettings(command: ["/bin/tell"], afterSeconds: nil))
        let cleared = try changed.applying(Delivery.Change(repeating: .init(repeat: ""), hook: .init(command: []), escalation: .init(escalateCommand: [])), adding: false)
        #expect(cleared.repeating.plan == nil && cleared.hook.command == nil && cleared.escalation == EscalationSettings())
    }

    /// Each part refuses its own bad input with the option to fix, before connecting and in the daemon alike.
    @Test(arguments: [
        (Delivery.Change(repeating: .init(repeat: "25h")), true, "repeat", "invalid --repeat '25h'"),
        (Delivery.Change(repeating: .init(repeatMax: 3)), true, "repeatMax", "a repeat maximum needs a repeat interval"),
        (Delivery.Change(repeating: .init(repeat: "10m", repeatMax: 101)), true, "repeatMax", "invalid --repeat-max 101"),
        (Delivery.Change(notification: .init(urgency: "loud")), false, "urgency", "invalid --urgency 'loud': write normal, critical or auto"),
        (Delivery.Change(notification: .init(sound: "Alarm Clock")), true, "sound", "invalid --sound 'Alarm Clock': write a sound theme's name"),
        (Delivery.Change(notification: .init(sound: "alarm.oga")), false, "sound", "a file is given by its path: write ./alarm.oga"),
        (Delivery.Change(notification: .init(sound: "/tmp/a\nb.oga")), true, "sound", "write the absolute path of a sound file"),
        (Delivery.Change(notification: .init(snooze: "90s")), true, "snooze", "invalid --snooze '90s': write whole minutes"),
        (Delivery.Change(notification: .init(snooze: "25h")), false, "snooze", "invalid --snooze '25h'"),
        (Delivery.Change(medication: .init(dose: "-2")), true, "dose", "a dose is more than 0"),
        (Delivery.Change(medication: .init(unit: "tablet")), true, "unit", "a unit without a dose"),
        (Delivery.Change(medication: .init(dose: "2mg", steps: "2mg until 2026-12-01")), true, "steps", "--dose and --steps both give the dose"),
        (Delivery.Change(medication: .init(minInterval: "10s")), false, "minInterval", "invalid --min-interval '10s'"),
        (Delivery.Change(medication: .init(maxPerDay: 101)), false, "maxPerDay", "invalid --max-per-day 101"),
        (Delivery.Change(medication: .init(refillDays: 400)), false, "refillDays", "invalid --refill-days 400"),
        (Delivery.Change(escalation: .init(escalateAfter: "30m")), true, "escalateAfter", "needs a command to run: add --escalate-exec"),
        (Delivery.Change(escalation: .init(escalateCommand: ["/bin/tell"], escalateAfter: "2d")), true, "escalateAfter", "invalid --escalate-after '2d'"),
    ] as [(Delivery.Change, Bool, String, String)])
    func eachPartRefusesItsOwnBadInput(change: Delivery.Change, adding: Bool, parameter: String, message: String) {
        var refusals: [PartError] = []
        do { try Delivery.check(change, adding: adding) } catch { refusals.append(error) }
        do { _ = try Delivery().applying(change, adding: adding) } catch { refusals.append(error) }
        #expect(refusals.count == 2, "accepted \(change)")
        for refusal in refusals {
            #expect(refusal.parameter == parameter)
            #expect(refusal.message.contains(message), "\(refusal.message)")
        }
    }

    /// `--snooze`, declared in the notification part alone: taken, shown with the default in effect, stored,
    /// and carried to other devices.
    @Test func theSnoozeLengthIsAPartsOption() throws {
        let change = try JSONDecoder().decode(Delivery.Change.self, from: Data(#"{"snooze": "15m"}"#.utf8))
        let delivery = try Delivery().applying(change, adding: true)
        #expect(delivery.notification.snooze == 15 && delivery.shown(on: nil).notification.snoozeMinutes == 15)
        #expect(Delivery().shown(on: nil).notification.snoozeMinutes == NotificationSettings.defaultSnoozeMinutes)
        #expect(try JSONDecoder().decode(Delivery.self, from: JSONEncoder().encode(delivery)) == delivery)
        #expect(delivery.syncedProperties == [SyncedProperty("SNOOZE", "900")])
        #expect(try Delivery { $0 == "SNOOZE" ? "900" : nil }.notification.snoozeMinutes == 15)
        #expect(try delivery.applying(Delivery.Change(notification: .init(snooze: "")), adding: false).notification.snoozeMinutes == nil)
    }

    /// What travels to another device: repeats, urgency, dose, limits, refill days and course. Commands never do
    /// (a synced file must not make another machine run a program), nor the calendar; merged into the other
    /// device's own settings, those stay as they were there.
    @Test func aSyncedItemCarriesWhatTravelsAndKeepsTheOtherDevicesOwn() throws {
        var sent = Self.everything
        sent.medication.steps = try DoseSteps(parsing: "2 tablet until 2026-12-01; 1 tablet until 2026-12-08", unit: nil)
        let properties = sent.syncedProperties
        #expect(properties.map(\.name) == ["REPEAT", "URGENCY", "DOSE", "LIMITS", "REFILL-DAYS", "STEPS"])
        let lookup = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0.text) })
        let read = try Delivery { lookup[$0] }
        #expect(read.hook.command == nil && read.escalation.command == nil && read.medication.refillDays == 5 && read.calendar == nil)
        let local = Delivery(hook: HookSettings(command: ["/bin/local"]), medication: { var m = MedicationSettings(); m.refillDays = 9; return m }())
        let merged = local.merging(synced: read)
        #expect(merged.repeating == sent.repeating && merged.notification == sent.notification)
        #expect(merged.medication.dose == sent.medication.dose && merged.medication.limits == sent.medication.limits && merged.medication.steps == sent.medication.steps)
        #expect(merged.hook.command == ["/bin/local"] && merged.medication.refillDays == 5 && merged.escalation == EscalationSettings())
        #expect(try Delivery { $0 == "ORDER-DAYS" ? "3" : nil }.medication.orderDays == 3)
        #expect(throws: PartError.self) { try Delivery { $0 == "REFILL-DAYS" ? "400" : nil } }
        // A bad property is named, for the item's line.
        do {
            _ = try Delivery { $0 == "LIMITS" ? "21600;3" : nil }
            Issue.record("accepted a bad X-REMINDD-LIMITS")
        } catch {
            #expect(error.parameter == "LIMITS")
        }
    }

    /// A dose is critical unless the reminder says otherwise (GNOME keeps only a critical notification on
    /// screen); a reminder without one is normal; rows stored before read the same (`critical` true or absent).
    @Test func aDoseIsCriticalUnlessSetOtherwise() throws {
        let dose = try Delivery().applying(Delivery.Change(medication: .init(dose: "500mg")), adding: true)
        #expect(dose.critical && dose.shown(on: nil).notification.urgency == "critical")
        #expect(!Delivery().critical && Delivery().shown(on: nil).notification.urgency == "normal")
        let normal = try dose.applying(Delivery.Change(notification: .init(urgency: "normal")), adding: false)
        #expect(!normal.critical && normal.shown(on: nil).notification.urgency == "normal")
        #expect(try normal.applying(Delivery.Change(notification: .init(urgency: "auto")), adding: false).critical)
        #expect(try normal.applying(Delivery.Change(notification: .init(urgency: "")), adding: false).notification.urgency == nil)
        // Stored: critical true, false (normal, as set) or absent (automatic); what was stored before reads the same.
        #expect(String(decoding: try JSONEncoder().encode(normal.notification), as: UTF8.self) == #"{"critical":false}"#)
        #expect(try JSONDecoder().decode(NotificationSettings.self, from: Data("{}".utf8)).urgency == nil)
        #expect(try JSONDecoder().decode(NotificationSettings.self, from: Data(#"{"critical":true}"#.utf8)).urgency == .critical)
        #expect(normal.syncedProperties.contains(SyncedProperty("URGENCY", "NORMAL")))
        #expect(try Delivery { $0 == "URGENCY" ? "NORMAL" : nil }.notification.urgency == .normal)
    }

    /// `--sound`: a theme's name, a file or none; stored, shown and checked in the part; a name or none travels to
    /// other devices, a file (this machine's own) does not, and is kept when another device's item comes.
    @Test func theSoundIsAPartsOption() throws {
        let named = try Delivery().applying(Delivery.Change(notification: .init(sound: "bell")), adding: true)
        #expect(named.notification.sound == .named("bell") && named.shown(on: nil).notification.sound == "bell")
        #expect(try JSONDecoder().decode(Delivery.self, from: JSONEncoder().encode(named)) == named)
        #expect(named.syncedProperties == [SyncedProperty("SOUND", "bell")])
        #expect(try Delivery { $0 == "SOUND" ? "none" : nil }.notification.sound == Sound.none)
        let file = try Delivery().applying(Delivery.Change(notification: .init(sound: "/home/me/alarm.oga")), adding: true)
        #expect(file.notification.sound == .file("/home/me/alarm.oga") && file.syncedProperties.isEmpty)
        #expect(file.merging(synced: Delivery()).notification.sound == .file("/home/me/alarm.oga"))
        #expect(file.merging(synced: named).notification.sound == .named("bell"))
        #expect(throws: PartError.self) { try Delivery { $0 == "SOUND" ? "/etc/passwd" : nil } }
        #expect(try named.applying(Delivery.Change(notification: .init(sound: "")), adding: false).notification.sound == nil)
        #expect(Sound.looksLikeSound(header: Array("OggS\0\u{2}".utf8)) && Sound.looksLikeSound(header: Array("RIFF\0\0\0\0WAVE".utf8)))
        #expect(!Sound.looksLikeSound(header: Array("#!/bin/sh\n".utf8)) && !Sound.looksLikeSound(header: []))
    }
}
