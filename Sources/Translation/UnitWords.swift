import ReminderCore

/// A dose's counted units in the user's language (`2 Tabletten`, `1 comprimé`), and the units a user types in it
/// (`--unit Tablette`), stored as the same unit whatever the language. Measured units (mg, ml, IU) are written
/// the same everywhere.
public enum UnitWords {
    /// Each counted unit's words, by its stored name.
    static let counted: [String: Message] = [
        "tablet": Message("%1$s tablet", plural: "%1$s tablets"),
        "capsule": Message("%1$s capsule", plural: "%1$s capsules"),
        "pill": Message("%1$s pill", plural: "%1$s pills"),
        "drop": Message("%1$s drop", plural: "%1$s drops"),
        "puff": Message("%1$s puff", plural: "%1$s puffs"),
        "spray": Message("%1$s spray", plural: "%1$s sprays"),
        "patch": Message("%1$s patch", plural: "%1$s patches"),
        "sachet": Message("%1$s sachet", plural: "%1$s sachets"),
        "injection": Message("%1$s injection", plural: "%1$s injections"),
        "suppository": Message("%1$s suppository", plural: "%1$s suppositories"),
        "lozenge": Message("%1$s lozenge", plural: "%1$s lozenges"),
        "ampoule": Message("%1$s ampoule", plural: "%1$s ampoules"),
        "unit": Message("%1$s unit", plural: "%1$s units"),
    ]

    /// The count a plural form is chosen by: one for exactly one, else the whole amount (at least two, so that
    /// half a tablet is "0.5 tablets" as in English).
    static func count(thousandths: Int64) -> Int { thousandths == 1000 ? 1 : max(2, Int(thousandths / 1000)) }
}

extension MessageCatalog {
    /// `2 Tabletten`, `1 tablet`, `500 mg`: a dose in this language.
    public func dose(_ dose: Dose) -> String {
        guard let message = UnitWords.counted[dose.unit] else { return dose.description }
        return self(message, count: UnitWords.count(thousandths: dose.thousandths), dose.amountText)
    }

    /// The stored name of a unit typed in this language or in English (`Tablette`, `Tabletten`, `tablets`), or
    /// nil when neither knows it.
    public func unitName(_ typed: String) -> String? {
        if let english = Dose.unitName(typed) { return english }
        let wanted = typed.lowercased()
        return UnitWords.counted.sorted { $0.key < $1.key }.first { _, message in
            [1, 2].contains { self(message, count: $0, "").lowercased().withoutSurroundingSpaces == wanted }
        }?.key
    }
}
