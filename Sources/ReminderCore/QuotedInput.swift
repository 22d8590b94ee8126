/// What a user typed, quoted for an error message: at most 80 characters of it (an error echoed a 10,000-character
/// input back whole), control characters escaped, so that the message stays one readable line.
public func quotedInput(_ value: some StringProtocol) -> String {
    let limit = 80
    var text = ""
    for scalar in value.unicodeScalars.prefix(limit) {
        text += scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return "'" + text + (value.unicodeScalars.count > limit ? "...'" : "'")
}
