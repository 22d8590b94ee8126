import FoundationEssentials
import ReminderCore
import ReminderInterface
import Translation

/// The report's SVG and the doctor's PDF for another front end (remindd-web): drawn by the same code as
/// `remindctl report --format svg|pdf`, in `words`' language.
public enum ReportDocuments {
    /// The charts as one SVG document.
    public static func svg(_ report: Reminders.Report.Reply, words: any MessageCatalog) -> String {
        CommandContext.speaking(words) {
            var named = report
            ReportCommand.namingPeople(&named)
            named.habits = nil
            return ReportChart.svg(named).render()
        }
    }

    /// `92.5%` as `words`' language writes it (`92,5 %`), as the report says it.
    public static func percent(_ value: Double, words: any MessageCatalog) -> String {
        CommandContext.speaking(words) { ReportCommand.percent(value) }
    }

    /// The PDF for the doctor, on the paper of `environment`'s locale (`rsvg-convert` from librsvg2-bin makes it).
    /// - Throws: a one-line error when rsvg-convert is missing or fails.
    public static func pdf(_ report: Reminders.Report.Reply, words: any MessageCatalog, environment: [String: String]) throws -> [UInt8] {
        try CommandContext.speaking(words, environment: environment) {
            var named = report
            ReportCommand.namingPeople(&named)
            named.habits = nil
            let sheet = ReportPages.Paper.fromLocale(environment)
            let pages = ReportPages.pages(named, paper: sheet).map { $0.render(tooltips: false) }
            return [UInt8](try PictureConverter.pdf(pages: pages, paper: sheet, environment: environment))
        }
    }

}
