import ReminderCore
import TimeZoneDatabase
import Testing

/// Loads a zone from the system's tzdata, failing the test when it is missing.
func zone(_ name: String) throws -> TimeZoneRules {
    try TimeZoneDatabase().rules(named: name)
}

/// Parses an ISO 8601 instant with offset (`2024-03-09T12:00:00-05:00`, `...Z`).
func instant(_ text: String) -> Instant {
    guard let parsed = ISO8601.parseInstant(text), let offset = parsed.offsetSeconds else {
        fatalError("bad instant in test: \(text)")
    }
    return Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(offset))
}

/// The next `count` firings as local ISO 8601 strings with offset.
func firings(_ spec: RuleSpec, zone name: String, after: String, count: Int = 3) throws -> [String] {
    let rule = try spec.makeRule()
    return rule.occurrences(after: instant(after), count: count, in: try zone(name)).map(\.localISO8601)
}

/// Splits `--daily --at 02:30 --preset "Twice a Day"` into a RuleSpec, as remindctl's flags map onto it.
func ruleSpec(fromArguments text: String) -> RuleSpec {
    var words: [String] = []
    var current = ""
    var quoted = false
    for character in text {
        if character == "\"" { quoted.toggle(); continue }
        if character == " " && !quoted {
            if !current.isEmpty { words.append(current) }
            current = ""
        } else {
            current.append(character)
        }
    }
    if !current.isEmpty { words.append(current) }
    var spec = RuleSpec()
    var index = 0
    while index < words.count {
        let flag = words[index]
        if flag == "--daily" { spec.daily = true; index += 1; continue }
        let value = words[index + 1]
        switch flag {
        case "--weekly": spec.weekly = value
        case "--monthly": spec.monthly = value
        case "--monthly-on": spec.monthlyOn = value
        case "--yearly": spec.yearly = value
        case "--every": spec.every = value
        case "--preset": spec.preset = value
        case "--once": spec.once = value
        case "--at": spec.at = value
        case "--start": spec.start = value
        case "--until": spec.until = value
        case "--skip": spec.skip = value
        default: Issue.record("unknown flag \(flag) in vector")
        }
        index += 2
    }
    return spec
}
