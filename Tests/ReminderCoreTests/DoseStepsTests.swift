import ReminderCore
import Testing

/// A tapering course's steps: read from `--steps`, written back the same, and the dose of each day at the
/// steps' boundaries.
@Suite("Medication: dose steps")
struct DoseStepsTests {
    @Test func eachDayTakesItsStepAndTheTextReadsBack() throws {
        let course = try DoseSteps(parsing: "40mg until 2026-12-01; 30 mg until 2026-12-08 ;20mg until 2026-12-15", unit: nil)
        func day(_ text: String) -> LocalDate { ISO8601.parseDate(text)! }
        #expect(course.dose(on: day("2026-11-20")).thousandths == 40_000, "before the course: its first step")
        #expect(course.dose(on: day("2026-12-01")).thousandths == 40_000, "a step's last day is its own")
        #expect(course.dose(on: day("2026-12-02")).thousandths == 30_000)
        #expect(course.dose(on: day("2026-12-15")).thousandths == 20_000)
        #expect(course.stepIndex(on: day("2026-12-16")) == nil && course.lastDay == day("2026-12-15"))
        #expect(try DoseSteps(parsing: course.text, unit: nil) == course)
        #expect(try DoseSteps(parsing: "2 until 2026-12-01; 1 until 2026-12-08", unit: "tablet").steps.map(\.dose.unit) == ["tablet", "tablet"])
        #expect(throws: RuleSpecError.self) { try DoseSteps(parsing: "", unit: "mg") }
        #expect(throws: RuleSpecError.self) { try DoseSteps(parsing: "0mg until 2026-12-01", unit: nil) }
    }
}
