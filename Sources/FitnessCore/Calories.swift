/// Energy estimates with the ACSM formula the Compendium is built on.
public enum Calories {
    /// kcal burned: minutes × MET × 3.5 × kg / 200 (kcal per minute = MET × 3.5 ml O2/kg/min × kg / 200),
    /// rounded to the nearest whole number, never negative.
    ///
    /// Some specifications drop the 3.5 and under-count by 3.5×: 30 minutes of running (9.8 MET) at 70 kg is
    /// 360 kcal, not 103.
    public static func burned(minutes: Int, met: Double, weightKilograms: Double) -> Int {
        max(0, Int((Double(minutes) * met * 3.5 * weightKilograms / 200).rounded()))
    }

    /// The default body weight when the profile has none.
    public static let defaultWeightKilograms = 70.0

    /// The weights a profile takes, in kilograms.
    public static let weightRange = 20.0...400.0

    /// A stored weight (the profile's text), when it is one `parseWeight` would have given; nil for anything else
    /// (`nan`, `1e309`, `-5`: a damaged or hand-written store), which the calories must not be computed with.
    public static func storedWeight(_ text: String) -> Double? {
        guard let kilograms = Double(text), weightRange.contains(kilograms) else { return nil }
        return kilograms
    }

    /// Parses `82kg`, `82 kg`, `180lb`, `180 lbs`, or a bare number in kilograms; nil when out of 20-400 kg.
    public static func parseWeight(_ text: String) -> Double? {
        let lower = text.lowercased().filter { $0 != " " }
        var number = lower
        var factor = 1.0
        for (suffix, f) in [("kg", 1.0), ("lbs", 0.45359237), ("lb", 0.45359237)] where lower.hasSuffix(suffix) {
            number = String(lower.dropLast(suffix.count))
            factor = f
            break
        }
        guard let value = Double(number) else { return nil }
        let kilograms = value * factor
        return weightRange.contains(kilograms) ? (kilograms * 10).rounded() / 10 : nil
    }
}
