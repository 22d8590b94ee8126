import FoundationEssentials
import ReminderCore
import ReminderInterface
import Translation

/// The report's SVG and the doctor's PDF for another front end (remindd-web): drawn by the same code as
/// `remindctl report --format svg|pdf`, in `words`' language.
public enum ReportDocuments {
    /// The charts as one SVG document.
    public static func svg(_ report: Reminders.Report.Reply, words: any MessageCatalog) -> String {
        speaking(words, environment: CommandContext.current.environment) {
            var named = report
            ReportCommand.namingPeople(&named)
            named.habits = nil
            return ReportChart.svg(named).render()
        }
    }

    /// The PDF for the doctor, on the paper of `environment`'s locale (`rsvg-convert` from librsvg2-bin makes it).
    /// - Throws: a one-line error when rsvg-convert is missing or fails.
    public static func pdf(_ report: Reminders.Report.Reply, words: any MessageCatalog, environment: [String: String]) throws -> [UInt8] {
        try speaking(words, environment: environment) {
            var named = report
            ReportCommand.namingPeople(&named)
            named.habits = nil
            let sheet = ReportPages.Paper.fromLocale(environment)
            let pages = ReportPages.pages(named, paper: sheet).map { $0.render(tooltips: false) }
            return [UInt8](try PictureConverter.pdf(pages: pages, paper: sheet, environment: environment))
        }
    }

    /// Runs `body` with the commands' context speaking `words` (the drawing reads its words from there).
    private static func speaking<Result>(_ words: any MessageCatalog, environment: [String: String], _ body: () throws -> Result) rethrows -> Result {
        var context = CommandContext.current
        (context.words, context.environment) = (words, environment)
        return try CommandContext.$current.withValue(context, operation: body)
    }
}
