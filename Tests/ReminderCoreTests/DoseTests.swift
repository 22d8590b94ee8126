import ReminderCore
import Testing

/// How a dose is written (`--dose 2 --unit tablet`, `--dose 500mg`) and said (`2 tablets`, `500 mg`).
@Suite("Doses")
struct DoseTests {
    @Test(arguments: [
        ("2", "tablet", 2000, "tablet", "2 tablets"), ("1", "tablets", 1000, "tablet", "1 tablet"), ("0.5", "Tablet", 500, "tablet", "0.5 tablets"),
        ("500mg", nil, 500_000, "mg", "500 mg"), ("500 mg", "mg", 500_000, "mg", "500 mg"), ("2 capsules", nil, 2000, "capsule", "2 capsules"),
        ("1000IU", nil, 1_000_000, "IU", "1000 IU"), ("50µg", nil, 50_000, "mcg", "50 mcg"), ("1.25", "ml", 1250, "ml", "1.25 ml"),
        ("0.001", "g", 1, "g", "0.001 g"), ("100000", "drop", 100_000_000, "drop", "100000 drops"),
    ] as [(String, String?, Int64, String, String)])
    func aDoseIsReadInThousandthsOfItsUnit(text: String, unit: String?, thousandths: Int64, name: String, said: String) throws {
        let dose = try Dose(amount: text, unit: unit)
        #expect(dose.thousandths == thousandths)
        #expect(dose.unit == name)
        #expect(dose.description == said)
        #expect(dose.problem == nil)
        // What it is written back as reads as the same dose.
        #expect(try Dose(amount: dose.amountText, unit: dose.unit) == dose)
    }

    @Test(arguments: [
        ("0", "tablet", "invalid dose '0'"), ("-1", "tablet", "invalid dose '-1'"), ("NaN", "tablet", "invalid dose 'NaN'"),
        ("1e20", "tablet", "invalid dose '1e20'"), ("100000000000000000000", "mg", "invalid dose"), ("100001", "mg", "invalid dose"),
        ("0.0001", "g", "invalid dose"), ("2.", "tablet", "invalid dose"), (".5", "tablet", "invalid dose"), ("", "tablet", "invalid dose"),
        ("2", nil, "needs a unit: write --dose 2 --unit tablet, or --dose 2mg"), ("2 furlongs", nil, "unknown unit 'furlongs'"),
        ("500mg", "tablet", "name two units"),
    ] as [(String, String?, String)])
    func aBadDoseSaysWhatToWrite(text: String, unit: String?, message: String) {
        #expect { try Dose(amount: text, unit: unit) } throws: { ($0 as? RuleSpecError)?.message.contains(message) == true }
    }

    @Test func aRestoredDoseIsChecked() {
        #expect(Dose(thousandths: 0, unit: "mg").problem != nil)
        #expect(Dose(thousandths: Dose.maximumThousandths + 1, unit: "mg").problem != nil)
        #expect(Dose(thousandths: 1000, unit: "furlong").problem != nil)
        #expect(Delivery(medication: MedicationSettings(dose: Dose(thousandths: -5, unit: "mg"))).problem != nil)
    }
}
