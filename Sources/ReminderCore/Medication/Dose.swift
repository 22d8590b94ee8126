/// An amount of a medication in a unit: how much one dose is (`2 tablets`, `500 mg`), or how much of it was
/// taken. Kept in thousandths of the unit, so that stock sums are exact (a half tablet a day for 30 days is 15).
public struct Dose: Sendable, Hashable {
    /// The amount, in thousandths of ``unit`` (2 tablets: 2000).
    public var thousandths: Int64
    /// One of ``units``' names.
    public var unit: String

    /// The largest amount of one dose or log.
    public static let maximumThousandths: Int64 = 100_000 * 1000

    /// The units a dose may be given in, by their name, with their plural where they are counted.
    public static let units: [(name: String, plural: String?)] = [
        ("tablet", "tablets"), ("capsule", "capsules"), ("pill", "pills"), ("drop", "drops"), ("puff", "puffs"),
        ("spray", "sprays"), ("patch", "patches"), ("sachet", "sachets"), ("injection", "injections"),
        ("suppository", "suppositories"), ("lozenge", "lozenges"), ("ampoule", "ampoules"), ("unit", "units"),
        ("IU", nil), ("mg", nil), ("g", nil), ("mcg", nil), ("ml", nil),
    ]

    /// Whether a unit is counted (tablets, puffs ...) rather than measured (mg, ml, IU).
    public static func isCounted(_ unit: String) -> Bool { units.first { $0.name == unit }?.plural != nil }

    /// What the units may also be written as.
    private static let aliases = ["µg": "mcg", "ug": "mcg", "iu": "IU", "mL": "ml", "cc": "ml"]

    /// What a user writes, for error messages.
    public static let forms = "an amount such as 2, 0.5 or 500mg, with a unit: tablet, capsule, drop, puff, mg, mcg, g, ml, IU ..."

    public init(thousandths: Int64, unit: String) {
        (self.thousandths, self.unit) = (thousandths, unit)
    }

    /// A dose as `--dose` and `--unit` give it: `2` with unit `tablet`, `500mg`, `2 tablets`, `0.5`.
    /// - Throws: ``RuleSpecError`` saying what to write instead.
    public init(amount text: String, unit given: String?) throws(RuleSpecError) {
        let trimmed = text.withoutSurroundingSpaces
        let digits = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let suffix = String(trimmed.dropFirst(digits.count)).withoutSurroundingSpaces
        // A number the unit cannot be told from (1e20, 2..5, -1) is no amount.
        guard let thousandths = Self.thousandths(String(digits)), !suffix.contains(where: \.isNumber) else {
            let shown = quotedInput(text)
            if trimmed.hasPrefix("-") { throw RuleSpecError("invalid dose \(shown): a dose is more than 0; write \(Self.forms)") }
            if trimmed.contains("/") { throw RuleSpecError("invalid dose \(shown): write a fraction as a decimal (a half: 0.5, a quarter: 0.25)") }
            throw RuleSpecError("invalid dose \(shown): write \(Self.forms)")
        }
        let unitText: String
        switch (suffix.isEmpty ? nil : suffix, given.map(\.withoutSurroundingSpaces)) {
        case (nil, nil):
            throw RuleSpecError("the dose \(quotedInput(text)) needs a unit: write --dose \(trimmed) --unit tablet, or --dose \(trimmed)mg")
        case (let written?, let option?) where Self.unitName(written) != Self.unitName(option):
            throw RuleSpecError("the dose \(quotedInput(text)) and --unit \(option) name two units: give one")
        case (let written?, _): unitText = written
        case (nil, let option?): unitText = option
        }
        guard let unit = Self.unitName(unitText) else {
            throw RuleSpecError("unknown unit \(quotedInput(unitText)): write one of \(Self.units.map(\.name).joined(separator: ", "))")
        }
        self.init(thousandths: thousandths, unit: unit)
    }

    /// `text` as thousandths: a positive decimal of at most 3 places, at most ``maximumThousandths``; nil else.
    public static func thousandths(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.count <= 6, whole.allSatisfy(\.isASCIIDigit) else { return nil }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 3, fraction.allSatisfy(\.isASCIIDigit), parts.count == 1 || !fraction.isEmpty else { return nil }
        let value = Int64(whole)! * 1000 + Int64(fraction + String(repeating: "0", count: 3 - fraction.count))!
        return (1...maximumThousandths).contains(value) ? value : nil
    }

    /// The canonical name of a unit as written (`Tablets`, `µg`), or nil for none remindd knows.
    public static func unitName(_ text: String) -> String? {
        if let alias = aliases[text] ?? aliases[text.lowercased()] { return alias }
        let lowered = text.lowercased()
        return units.first { $0.name.lowercased() == lowered || $0.plural == lowered }?.name
    }

    /// The amount as a decimal: `2`, `0.5`, `1.25`.
    public var amountText: String { Self.text(thousandths: thousandths) }

    /// A number of thousandths as a decimal without trailing zeros.
    public static func text(thousandths: Int64) -> String {
        let whole = "\(thousandths / 1000)"
        var fraction = String(String(thousandths % 1000 + 1000).dropFirst())
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? whole : whole + "." + fraction
    }

    /// `2 tablets`, `1 tablet`, `500 mg`.
    public var description: String {
        let plural = Self.units.first { $0.name == unit }?.plural
        return "\(amountText) \(thousandths == 1000 ? unit : plural ?? unit)"
    }

    /// What is wrong with a dose that did not come through `Add` or `Update` (a restored row); nil when nothing is.
    public var problem: String? {
        guard (1...Self.maximumThousandths).contains(thousandths) else { return "dose \(thousandths)/1000 is not a positive amount up to 100000" }
        guard Self.units.contains(where: { $0.name == unit }) else { return "dose unit '\(unit)' is unknown" }
        return nil
    }
}
