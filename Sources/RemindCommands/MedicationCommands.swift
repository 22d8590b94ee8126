import ArgumentParser
import ReminderCore
import ReminderInterface
import VarlinkProtocol
import Translation

struct StockCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stock",
        abstract: "A medication's stock: count it, refill it, see when it runs out.",
        discussion: """
            Amounts are in the unit of the reminder's dose (remindctl add NAME --dose 2 --unit tablet). Each log \
            subtracts its amount (a deleted log gives it back); what is left never goes below zero. When what is \
            left covers fewer days than the reminder's --refill-days (default 7), remindd says so once: in the \
            journal, as a desktop notification and to the hooks, with the day to order more by (--order-days \
            before it runs out, default the refill days); again after a refill. A pack recorded with its last day \
            (--expires 2027-03) is used first, and stops counting after that day.

            Examples:
              remindctl stock set Metformin 60
              remindctl stock add Metformin 60
              remindctl stock add Metformin 30 --expires 2027-03
              remindctl stock show
              remindctl stock show Metformin --json
            """,
        subcommands: [StockShowCommand.self, StockSetCommand.self, StockAddCommand.self],
        defaultSubcommand: StockShowCommand.self)
}

/// `60 tablets: enough through Fri 2026-12-18 (24 days); order by Fri 2026-12-11`.
private func describe(_ stock: StockValue) -> String {
    guard let left = stock.left else { return out.words(CommandMessages.notCounted, stock.shownName) }
    let amount = doseText(left, stock.unit) ?? "\(left)"
    if stock.outlastsTheRule { return out.words(CommandMessages.outlasts, amount) }
    let day = { (text: String) in ISO8601.parseDate(text).map { "\(out.weekday($0)) \(text)" } ?? text }
    guard let through = stock.through, let days = stock.days else {
        return out.words(CommandMessages.notEnough, amount, doseText(stock.dose, stock.unit) ?? "")
    }
    let enough = out.words(CommandMessages.enoughThrough, count: days, amount, day(through), days)
    return stock.orderBy.map { out.words(CommandMessages.orderBy, enough, day($0)) } ?? enough
}

/// The lines of each pack, under the stock's: `  30 tablets, until 2027-03-31`, `  12 tablets, expired 2026-11-30`.
private func packLines(_ stock: StockValue) -> [String] {
    (stock.packs ?? []).map { pack in
        let amount = doseText(pack.left, stock.unit) ?? "\(pack.left)"
        guard let expires = pack.expires else { return "  " + out.words(CommandMessages.packNoDate, amount) }
        return "  " + out.words(pack.expired ? CommandMessages.packExpired : CommandMessages.packUntil, amount, expires)
    }
}

struct StockShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show what is left of each medication (or one) and the day it runs out.",
        discussion: "Examples:\n  remindctl stock show\n  remindctl stock show Metformin --json")

    @Argument(help: "The reminder's id or name (default: every reminder with a dose).", completion: .custom(Completions.reminders)) var reminder: String?
    @Flag(help: "Print a JSON array of stocks.") var json = false
    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let stocks = try connection.call(Medication.Stock.self, .init(reminder: reminder)).stocks
        if json { return try out.json(stocks) }
        if stocks.isEmpty { return out.print(out.words(CommandMessages.noDoses)) }
        out.table(out.headings(CommandMessages.reminder, CommandMessages.dose, CommandMessages.stock), stocks.map { [$0.shownName, doseText($0.dose, $0.unit) ?? "-", describe($0)] })
        for stock in stocks where stock.packs != nil {
            out.print("\(stock.shownName):")
            for line in packLines(stock) { out.print(line) }
        }
    }
}

/// `stock set` and `stock add`: a reminder and an amount, sent to one method.
private protocol StockChanging: ParsableCommand {
    associatedtype Method: VarlinkMethod where Method.Parameters == StockAmount, Method.Reply == StockReply
    var reminder: String { get }
    var amount: String { get }
    var expires: String? { get }
    var json: Bool { get }
    var connection: ConnectionOptions { get }
    static var verb: String { get }
}

extension StockChanging {
    func run() throws {
        let stock = try connection.call(Method.self, StockAmount(reminder: reminder, amount: typedAmount(amount) ?? amount, expires: expires)).stock
        if json { return try out.json(stock) }
        out.print("\(stock.shownName) \(Self.verb): \(describe(stock))")
        for line in packLines(stock) { out.print(line) }
    }
}

struct StockSetCommand: StockChanging {
    typealias Method = Medication.StockSet
    static let verb = "counted"
    static let configuration = CommandConfiguration(
        commandName: "set", abstract: "Count a medication's stock: this much is left now.", discussion: "Example:\n  remindctl stock set Metformin 60")

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Argument(help: "How much is left, in the unit of its dose (0 for none).") var amount: String
    @Option(help: ArgumentHelp("The last day it may be used, as on the pack: 2027-03 (that month's last day) or 2027-03-31.", valueName: "date")) var expires: String?
    @Flag(help: "Print the stock as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions
}

struct StockAddCommand: StockChanging {
    typealias Method = Medication.StockAdd
    static let verb = "refilled"
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Refill a medication's stock: a pack of this much more.",
        discussion: "Examples:\n  remindctl stock add Metformin 60\n  remindctl stock add Metformin 30 --expires 2027-03")

    @Argument(help: "The reminder's id or name.", completion: .custom(Completions.reminders)) var reminder: String
    @Argument(help: "How much was added, in the unit of its dose.") var amount: String
    @Option(help: ArgumentHelp("The pack's last day, as on it: 2027-03 (that month's last day) or 2027-03-31. Doses use the pack that expires first.", valueName: "date")) var expires: String?
    @Flag(help: "Print the stock as JSON.") var json = false
    @OptionGroup var connection: ConnectionOptions
}
