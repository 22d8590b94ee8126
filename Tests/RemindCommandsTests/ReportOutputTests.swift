import Foundation
import ReminderCore
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import RemindCommands

/// `remindctl report` in the terminal, 80 columns at most: the figures, a bar per reminder, the notes, and
/// each reminder's days as a grid a week per row; the same symbols with and without colour (NO_COLOR, a pipe).
@Suite("remindctl report")
struct ReportOutputTests {
    static let reply = #"""
        {"from": "2026-11-02", "to": "2026-11-12", "timeZone": "UTC", "madeUtc": "2026-11-24T21:00:00Z", "reminders": [
         {"reminderId": 1, "reminderName": "Metformin", "due": 21, "onTime": 15, "loggedAhead": 1, "late": 2, "lateMinutesMedian": 95,
          "lateMinutesP90": 180, "skipped": 2, "skipReasons": [{"reason": "travel", "count": 1}, {"reason": "", "count": 1}],
          "missed": ["2026-11-05T20:00:00+00:00", "2026-11-10T08:00:00+00:00"], "adherence": 0.8947368421052632,
          "days": [{"date": "2026-11-02", "states": ["taken", "taken"]}, {"date": "2026-11-03", "states": ["suppressed", "taken"]},
                   {"date": "2026-11-04", "states": ["taken-late", "taken"]}, {"date": "2026-11-05", "states": ["taken", "missed"]},
                   {"date": "2026-11-06", "states": ["skipped", "taken"]}, {"date": "2026-11-07", "states": ["taken", "taken"]},
                   {"date": "2026-11-08", "states": ["taken", "skipped"]}, {"date": "2026-11-09", "states": ["taken", "taken-late"]},
                   {"date": "2026-11-10", "states": ["missed", "taken"]}, {"date": "2026-11-11", "states": ["taken", "taken"]},
                   {"date": "2026-11-12", "states": ["taken"]}]}]}
        """#

    /// The same with every part: who it is for, a medication with its stock, one taken as needed, the habit and
    /// the calories.
    static let everyPart: String = {
        var days: [String] = []
        var habitDays: [String] = []
        var strength = 0.0
        for day in 2...12 {
            let date = "2026-11-\(day < 10 ? "0" : "")\(day)"
            let state = day == 7 ? "missed" : day == 8 ? "rest" : day == 12 ? "open" : "active"
            strength = state == "active" ? strength * 0.948 + 0.052 : state == "missed" ? strength * 0.948 : strength
            habitDays.append(#"{"date": "\#(date)", "state": "\#(state)", "strength": \#(strength)}"#)
            days.append(#"{"date": "\#(date)", "consumed": \#(1800 + day * 10), "burned": \#(day % 3 == 0 ? 450 : 0), "net": \#(1800 + day * 10 - (day % 3 == 0 ? 450 : 0))}"#)
        }
        let taken = (2...12).map { #"{"date": "2026-11-\#($0 < 10 ? "0" : "")\#($0)", "amount": \#($0 == 5 || $0 == 10 ? 2 : $0 == 12 ? 2 : 4)}"# }
        let stock = (2...12).map { day in
            let left = day < 9 ? 60 - 4 * (day - 1) : 120 - 4 * (day - 1)
            return #"{"date": "2026-11-\#(day < 10 ? "0" : "")\#(day)", "left": \#(left), "added": \#(day == 9 ? 60 : 0)}"#
        }
        let ibuprofen = (2...12).map { #"{"date": "2026-11-\#($0 < 10 ? "0" : "")\#($0)", "amount": \#($0 % 4 == 0 ? 400 : 0)}"# }
        return String(reply.dropLast()) + #"""
            , "profileName": "Ana Souza", "medications": [
              {"reminderId": 1, "reminderName": "Metformin", "unit": "tablet", "taken": [\#(taken.joined(separator: ", "))],
               "stock": [\#(stock.joined(separator: ", "))]},
              {"reminderId": 2, "reminderName": "Ibuprofen", "unit": "mg", "taken": [\#(ibuprofen.joined(separator: ", "))],
               "asNeededWeeks": [{"week": "2026-11-02", "doses": 1}, {"week": "2026-11-09", "doses": 1}]}],
             "habits": {"days": [\#(habitDays.joined(separator: ", "))], "activeByWeekday": [2, 2, 1, 2, 1, 0, 0],
                        "streaks": [{"length": 5, "start": "2026-11-08", "end": "2026-11-12"}, {"length": 5, "start": "2026-11-02", "end": "2026-11-06"}]},
             "fitness": {"days": [\#(days.joined(separator: ", "))]}}
            """#
    }()

    var harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))

    @Test func everyPartWithin80ColumnsPlainAndColoured() {
        var full = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": Self.everyPart]))
        let plain = full.run("report", "--habits")
        #expect(plain.error == nil)
        let parts = plain.output.components(separatedBy: "\n\nMetformin (tablet)\n")
        #expect(parts.count == 2 && plain.output.hasPrefix("For Ana Souza\nAdherence, 2026-11-02"))
        let expected = """
            Metformin (tablet)
              taken     ███▅████▅█▅
              38 tablets on 11 of 11 days; most 4 tablets on 2026-11-02
              stock     ▅▅▅▅▄▄▄██▇▇
              76 tablets left on 2026-11-12; refilled 60 on 2026-11-09

            Ibuprofen (mg)
              taken       █   █   █
              1200 mg on 3 of 11 days; most 400 mg on 2026-11-04
              per week  ██
              as needed: 2 doses in 2 weeks; most 1 in the week of 2026-11-02

            Habit
              strength  ▁▂▂▂▃▃▃▃▃▃▃ 34%
              ■ active  r rest  * frozen  + recovered  ✕ missed  - today
              Mon  ■■
              Tue  ■■
              Wed  ■■
              Thu  ■-
              Fri  ■
              Sat  ✕
              Sun  r
              Active days by weekday:
              Mon  ██████████████████████████████ 2
              Tue  ██████████████████████████████ 2
              Wed  ███████████████                1
              Thu  ██████████████████████████████ 2
              Fri  ███████████████                1
              Sat                                 0
              Sun                                 0
              Longest streaks:
              2026-11-08 to 2026-11-12  ██████████████████████████████ 5 d
              2026-11-02 to 2026-11-06  ██████████████████████████████ 5 d

            Calories (kcal a day)
              eaten     ███████████ 1870 avg
              burned     █  █  █  █ 164 avg
              net       █▆██▆██▆██▆ 1706 avg

            """
        #expect("Metformin (tablet)\n" + parts.last! == expected)
        #expect(plain.output.split(separator: "\n").allSatisfy { String($0).displayWidth <= 80 })
        full.terminal = true
        let coloured = full.run("report", "--habits").output
        #expect(coloured.contains("\u{1B}[36m▅▅▅▅▄") && coloured.contains("\u{1B}[1;31m✕\u{1B}[0m"))
        full.environment["NO_COLOR"] = "1"
        #expect(full.run("report", "--habits").output == plain.output)
    }

    @Test func plainTextAt80Columns() {
        let result = harness.run("report")
        #expect(result.error == nil)
        let expected = """
            Adherence, 2026-11-02 to 2026-11-12 (11 days, UTC)
            Made Tue 2026-11-24 21:00 +00:00

            REMINDER   DUE  ON TIME  LATE  SKIPPED  MISSED  ADHERENCE
            Metformin  21   15       2     2        2       89.5%  ██████████▊
            Metformin:
              late by 95 min (median), 180 min (90th percentile)
              skipped: travel 1, no reason 1
              missed: Thu 2026-11-05 20:00, Tue 2026-11-10 08:00

            Metformin
              - due  ✕ missed  · skipped  □ suppressed  ■ taken  ◆ taken late
            2026-11-02  ■■ □■ ◆■ ■✕ ·■ ■■ ■·
            2026-11-09  ■◆ ✕■ ■■ ■

            """
        #expect(result.output == expected)
        #expect(result.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }

    @Test func aLongNameIsShortenedWithin80Columns() {
        let long = Self.reply.replacingOccurrences(of: "\"Metformin\"", with: "\"Metformin 500 mg, with food, and a very long name indeed\"")
        let result = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": long])).run("report")
        #expect(result.output.contains("Metformin 500 mg, w…") && result.output.split(separator: "\n").allSatisfy { String($0).displayWidth <= 80 })
    }

    @Test func privateLeavesTheNamesOutAndNumbersEachReminderAlikeInEveryPart() throws {
        let result = harness.run("report", "--private")
        #expect(!result.output.contains("Metformin") && result.output.contains("Medication 1  21"))
        let full = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": Self.everyPart]))
        let json = full.run("report", "--private", "--json").output
        #expect(!json.contains("Metformin") && !json.contains("Ibuprofen"))
        let text = full.run("report", "--private").output
        #expect(text.contains("\nMedication 1 (tablet)\n") && text.contains("\nMedication 2 (mg)\n"), "the adherence table's Medication 1 is the tablet's")
    }

    @Test func colouredOnATerminalAndPlainWithNoColor() {
        var terminal = harness
        terminal.terminal = true
        let coloured = terminal.run("report").output
        #expect(coloured.contains("\u{1B}[1;31m✕\u{1B}[0m") && coloured.contains("\u{1B}[32m■\u{1B}[0m") && coloured.contains("\u{1B}[33m◆\u{1B}[0m"))
        terminal.environment["NO_COLOR"] = "1"
        #expect(terminal.run("report").output == harness.run("report").output)
    }
}

extension ReportOutputTests {
    @Test func aLongListIsWrappedWithin80Columns() {
        let text = "missed: " + (1...40).map { "Thu 2026-11-\($0 < 10 ? "0" : "")\($0) 20:00" }.joined(separator: ", ")
        let lines = ReportCommand.wrapped(text, width: 80, indent: 2).split(separator: "\n")
        #expect(lines.count > 5 && lines.allSatisfy { $0.count <= 80 })
        #expect(lines.joined(separator: " ").split(separator: " ").joined(separator: " ") == text)
    }
}

/// `remindctl report --format svg`: a valid document whose every label lies inside the canvas and clear of
/// every other, with each day's states as cells in their colours; written whole to `-o` or not at all.
@Suite("remindctl report --format svg")
struct ReportPictureTests {
    var harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": ReportOutputTests.reply]))

    /// The root's size, each text's box (as the drawing layer measures it) and each cell's title and fill.
    final class Reader: NSObject, XMLParserDelegate {
        var size = (width: 0.0, height: 0.0)
        var texts: [(text: String, box: SVGDrawing.Box)] = []
        var cells: [String: String] = [:]
        /// Each titled cell's left edge.
        var cellLeft: [String: Double] = [:]
        private var rectLeft: Double?
        private var open: (x: Double, y: Double, size: Double, anchor: String)?
        /// The vertical offsets of the groups (`translate(0,y)`) the parser is in.
        private var offsets: [Double] = []
        private var content = ""
        private var rectFill: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
            switch name {
            case "svg": size = (number("width"), number("height"))
            case "g":
                let translate = attributes["transform"]?.split(whereSeparator: { "(),".contains($0) }).dropFirst()
                offsets.append(Double(translate?.last ?? "") ?? 0)
            case "text": (open, content) = ((number("x"), number("y") + offsets.reduce(0, +), number("font-size"), attributes["text-anchor"] ?? "start"), "")
            case "rect": (rectFill, rectLeft) = (attributes["fill"], number("x"))
            case "title": content = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { content += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text", let open {
                let width = SVGDrawing.textWidth(content, size: open.size)
                let left = open.anchor == "start" ? open.x : open.anchor == "middle" ? open.x - width / 2 : open.x - width
                texts.append((content, SVGDrawing.Box(x: left, y: open.y - open.size, width: width, height: open.size * 1.25)))
                self.open = nil
            }
            if name == "title", let rectFill { (cells[content], cellLeft[content]) = (rectFill, rectLeft) }
            if name == "rect" { rectFill = nil }
            if name == "g" { offsets.removeLast() }
        }
    }

    @Test(arguments: [ReportOutputTests.reply, ReportOutputTests.everyPart])
    func theLabelsLieInsideAndApartAndEachCellHasItsStatesColour(reply: String) throws {
        let harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("adherence.svg").path
        let result = harness.run("report", "--format", "svg", "-o", path)
        #expect(result.error == nil && result.output.isEmpty)
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        let reader = Reader()
        parser.delegate = reader
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(reader.texts.count > 10 && reader.size.width == 720)
        for (text, box) in reader.texts { #expect(box.isInside(width: reader.size.width, height: reader.size.height), "\(text) is outside") }
        for (i, a) in reader.texts.enumerated() {
            for b in reader.texts[(i + 1)...] { #expect(!a.box.overlaps(b.box), "'\(a.text)' and '\(b.text)' overlap") }
        }
        #expect(reader.texts.contains { $0.text == "89.5%" } && reader.texts.contains { $0.text == "100%" })
        #expect(reader.cells["2026-11-05: missed"] == "#7f1d1d" && reader.cells["2026-11-04: taken-late"] == "#f59f00")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["adherence.svg"], "no temporary file left")
    }

    @Test func everyPartIsDrawn() throws {
        let svg = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": ReportOutputTests.everyPart])).run("report", "--format", "svg", "--habits").output
        let reader = Reader()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = reader
        #expect(parser.parse())
        let texts = Set(reader.texts.map(\.text))
        for title in ["Report for Ana Souza, 2026-11-02 to 2026-11-12", "Metformin: taken per day (tablet)", "Metformin: stock at the end of each day (tablet)",
                      "Ibuprofen: doses per week (from Monday)", "Habit strength (0-100: up with each active day, down with each missed one)", "Active days by weekday",
                      "Longest streaks", "Calories per day (kcal)"] {
            #expect(texts.contains(title), "no \(title)")
        }
        // A bar per day with its amount, the refill, the habit's days in their colours, a day's calories.
        #expect(reader.cells["2026-11-05: 2 tablets"] == "#2f9e44" && reader.cells["2026-11-09: 60 refilled"] == "#74c0fc")
        #expect(reader.cells["2026-11-07: missed"] == "#7f1d1d" && reader.cells["2026-11-08: rest"] == "#d0bfff")
        #expect(reader.cells["2026-11-03: 450 burned"] == "#1c7ed6" && texts.contains("5 days"))
    }

    /// What a doctor reads, drawn as it should be: the habit's pages only with `--habits`; a chart from its first
    /// day with data (Ibuprofen's first dose on 4 Nov: before, two empty days led it); the heatmap's columns under
    /// their times, each cell saying its time; amounts in words ("2 tablets", was "2 tablet").
    @Test func theChartsStartAtTheirDataTheHeatmapNamesItsTimesAndHabitsComeWhenAsked() throws {
        var reply = try #require(try JSONSerialization.jsonObject(with: Data(ReportOutputTests.everyPart.utf8)) as? [String: Any])
        var reminders = try #require(reply["reminders"] as? [[String: Any]])
        let days = try #require(reminders[0]["days"] as? [[String: Any]])
        reminders[0]["days"] = days.map { day in
            var day = day
            day["times"] = Array(["08:00", "20:00"].prefix((day["states"] as? [String])?.count ?? 0))
            return day
        }
        reply["reminders"] = reminders
        let json = String(decoding: try JSONSerialization.data(withJSONObject: reply), as: UTF8.self)
        func drawn(_ arguments: String...) -> Reader {
            let svg = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": json])).run(["report", "--format", "svg"] + arguments).output
            let reader = Reader()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = reader
            #expect(parser.parse())
            return reader
        }
        let plain = drawn()
        let texts = plain.texts.map(\.text)
        #expect(!texts.contains("Active days by weekday") && !texts.contains("Longest streaks") && texts.contains("Calories per day (kcal)"))
        #expect(drawn("--habits").texts.contains { $0.text == "Active days by weekday" })
        #expect(texts.filter { $0 == "08:00" || $0 == "20:00" } == ["08:00", "20:00"])
        #expect(plain.cells["2026-11-05 20:00: missed"] == "#7f1d1d" && plain.cells["2026-11-05: 2 tablets"] == "#2f9e44")
        // Ibuprofen's chart: from 4 Nov, its first dose, in the first slot; Metformin's (doses every day) from 2 Nov.
        let (ibuprofen, metformin) = (try #require(plain.cellLeft["2026-11-04: 400 mg"]), try #require(plain.cellLeft["2026-11-04: 4 tablets"]))
        #expect(ibuprofen < metformin && metformin - ibuprofen > 2 * 600 / 11 * 0.9)
        for (text, box) in plain.texts { #expect(box.isInside(width: plain.size.width, height: plain.size.height), "\(text) is outside") }
        for (i, a) in plain.texts.enumerated() {
            for b in plain.texts[(i + 1)...] { #expect(!a.box.overlaps(b.box), "'\(a.text)' and '\(b.text)' overlap") }
        }
    }

    @Test func theHTMLPageHoldsEachPartsPictureUnderItsHeading() throws {
        let html = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": ReportOutputTests.everyPart])).run("report", "--format", "html", "--habits").output
        final class Page: NSObject, XMLParserDelegate {
            var headings: [String] = []
            var pictures = 0
            var inHeading = false
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
                if name == "h2" { (inHeading, headings) = (true, headings + [""]) }
                if name == "svg" { pictures += 1 }
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { if inHeading { headings[headings.count - 1] += string } }
            func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) { if name == "h2" { inHeading = false } }
        }
        let page = Page()
        let parser = XMLParser(data: Data(html.utf8))
        parser.delegate = page
        #expect(parser.parse(), "the page is well-formed (XHTML-compatible): \(parser.parserError.map { "\($0)" } ?? "")")
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<title>Report for Ana Souza, 2026-11-02 to 2026-11-12</title>"))
        #expect(page.headings == ["Adherence", "Metformin", "Metformin: taken", "Metformin: stock", "Ibuprofen: taken", "Ibuprofen: as needed",
                                  "Habit strength", "Days", "Active days by weekday", "Streaks", "Calories"])
        #expect(page.pictures == page.headings.count + 1, "the header and a picture per heading")
        #expect(!html.contains("src=") && !html.contains("href=") && !html.contains("<script"), "self-contained: nothing fetched")
    }

    /// Ten years of a twice-daily dose: each day one cell of a calendar (missed if either was), not 3,650 rows.
    @Test func aLongPeriodIsACalendarOfDaysInThePictureAndTheTerminal() throws {
        let first = LocalDate(year: 2016, month: 11, day: 28)!.dayNumber
        let days = (0..<3650).map { offset -> String in
            let states = offset % 97 == 0 ? #"["taken", "missed"]"# : offset % 31 == 0 ? #"["skipped", "taken"]"# : #"["taken", "taken"]"#
            return #"{"date": "\#(LocalDate(dayNumber: first + offset))", "states": \#(states)}"#
        }
        let taken = (0..<3650).map { #"{"date": "\#(LocalDate(dayNumber: first + $0))", "amount": \#($0 % 2 == 0 ? 2 : 4)}"# }
        let reply = #"""
            {"from": "2016-11-28", "to": "\#(LocalDate(dayNumber: first + 3649))", "timeZone": "UTC", "madeUtc": "2026-11-24T21:00:00Z", "reminders": [
             {"reminderId": 1, "reminderName": "Metformin", "due": 7300, "onTime": 7200, "loggedAhead": 0, "late": 0, "skipped": 60,
              "skipReasons": [], "missed": [], "adherence": 0.99, "days": [\#(days.joined(separator: ", "))]}],
             "medications": [{"reminderId": 1, "reminderName": "Metformin", "unit": "tablet", "taken": [\#(taken.joined(separator: ", "))]}]}
            """#
        let harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))
        let reader = Reader()
        let parser = XMLParser(data: Data(harness.run("report", "--format", "svg").output.utf8))
        parser.delegate = reader
        #expect(parser.parse())
        #expect(reader.size.height < 2000, "a calendar in bands, not a row a day: \(reader.size.height)")
        for (i, a) in reader.texts.enumerated() {
            #expect(a.box.isInside(width: reader.size.width, height: reader.size.height), "\(a.text) is outside")
            for b in reader.texts[(i + 1)...] { #expect(!a.box.overlaps(b.box), "'\(a.text)' and '\(b.text)' overlap") }
        }
        // The amounts: 300 slots at most, here 13 days each, each bar their mean (7 days of 2 and 6 of 4 first).
        let bars = reader.cells.filter { $0.key.hasSuffix(" tablets") }
        #expect(bars.count == (3650 + 12) / 13 && texts(reader).contains("Metformin: taken per day (tablet), 13 days a slot"))
        #expect(bars["2016-11-28: 2.92 tablets"] != nil && bars["\(LocalDate(dayNumber: first + 13)): 3.08 tablets"] != nil)
        #expect(reader.cells.count - bars.count == 3650 + 1)  // the calendar's days and the bar
        #expect(reader.cells["\(LocalDate(dayNumber: first + 97)): missed"] == "#7f1d1d" && reader.cells["\(LocalDate(dayNumber: first + 31)): skipped"] == "#74c0fc")
        #expect(reader.cells["\(LocalDate(dayNumber: first + 1)): taken"] == "#2f9e44")
        let text = harness.run("report").output
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count < 30 && lines.allSatisfy { String($0).displayWidth <= 80 })
        #expect(text.contains("  each day, missed if any dose was (last 70 weeks; all in --format svg)\n  Mon  "))
    }

    private func texts(_ reader: Reader) -> Set<String> { Set(reader.texts.map(\.text)) }

    /// Every 15 minutes: 96 occurrences a day do not fit across the picture; each day is a calendar cell instead.
    @Test func manyOccurrencesADayStayInsideThePicture() throws {
        let states = "[" + (0..<96).map { $0 == 40 ? #""missed""# : #""taken""# }.joined(separator: ", ") + "]"
        let reply = #"""
            {"from": "2026-11-02", "to": "2026-11-03", "timeZone": "UTC", "madeUtc": "2026-11-24T21:00:00Z", "reminders": [
             {"reminderId": 1, "reminderName": "Sip water", "due": 192, "onTime": 191, "loggedAhead": 0, "late": 0, "skipped": 0,
              "skipReasons": [], "missed": ["2026-11-02T10:00:00+00:00"], "adherence": 0.99,
              "days": [{"date": "2026-11-02", "states": \#(states)}, {"date": "2026-11-03", "states": \#(states.replacingOccurrences(of: "missed", with: "taken"))}]}]}
            """#
        let harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))
        final class Rects: NSObject, XMLParserDelegate {
            var outside = 0
            var width = 0.0
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
                if name == "svg" { width = Double(attributes["width"] ?? "") ?? 0 }
                if name == "rect", let x = attributes["x"].flatMap(Double.init), let w = attributes["width"].flatMap(Double.init), x + w > width { outside += 1 }
            }
        }
        let svg = harness.run("report", "--format", "svg").output
        let rects = Rects()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = rects
        #expect(parser.parse() && rects.width == 720)
        #expect(rects.outside == 0, "every cell inside the picture")
        #expect(svg.contains("<title>2026-11-02: missed</title>") && svg.contains("<title>2026-11-03: taken</title>"))
        #expect(harness.run("report").output.contains("  each day, missed if any dose was (all in --format svg)\n  Mon  ✕\n  Tue  ■\n"))
    }

    @Test func aPictureNeedsRsvgConvertAndNotATerminal() throws {
        var bare = harness
        bare.environment["PATH"] = "/nonexistent"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).pdf").path
        #expect(bare.run("report", "--format", "pdf", "-o", path).error?.contains("needs rsvg-convert: install the librsvg2-bin package") == true)
        #expect(!FileManager.default.fileExists(atPath: path))
        var terminal = harness
        terminal.terminal = true
        #expect(terminal.run("report", "--format", "png").error?.contains("a PNG is not for the terminal: give -o FILE") == true)
    }

    @Test func theTextGoesToAFileAsAPipeWouldGetIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).txt").path
        var terminal = harness
        terminal.terminal = true
        let result = terminal.run("report", "-o", path)
        #expect(result.error == nil && result.output.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == harness.run("report").output, "the same text, without colour")
        try FileManager.default.removeItem(atPath: path)
    }

    @Test func anUnwritablePlaceOrAnUnknownFormatIsRefusedAndNothingIsWritten() throws {
        let nowhere = "/nonexistent-\(UUID().uuidString)/adherence.svg"
        #expect(harness.run("report", "--format", "svg", "-o", nowhere).error?.contains("cannot write \(nowhere)") == true)
        #expect(!FileManager.default.fileExists(atPath: nowhere))
        #expect(harness.run("report", "--format", "gif").error?.contains("unknown --format 'gif': write text, svg, png, pdf or html") == true)
    }

    /// On screen each cell is a rectangle with its tooltip; on paper (PDF, PNG) each run's cells of one colour are
    /// one path of the same squares, in order (rsvg-convert drew 43,000 rectangles of a 10-year report in 1 s).
    @Test func onPaperCellsAreOnePathPerColourOfTheSameSquares() {
        var drawing = SVGDrawing(width: 100, height: 100)
        drawing.cell(x: 0, y: 0, width: 10, height: 10, fill: "#2f9e44", title: "2026-11-02: taken")
        drawing.cell(x: 12, y: 0, width: 10, height: 10, fill: "#7f1d1d", title: "2026-11-03: missed")
        drawing.cell(x: 24, y: 0, width: 10, height: 10, fill: "#2f9e44", title: "2026-11-04: taken")
        drawing.text("Nov", x: 0, y: 30, size: 9)
        drawing.cell(x: 0.5, y: 40, width: 10, height: 10, fill: "#2f9e44", title: "2026-11-05: taken")
        let screen = drawing.render().split(separator: "\n").filter { $0.hasPrefix("<rect x=") || $0.hasPrefix("<path") || $0.hasPrefix("<text") }
        #expect(screen == [
            ##"<rect x="0" y="0" width="10" height="10" fill="#2f9e44"><title>2026-11-02: taken</title></rect>"##,
            ##"<rect x="12" y="0" width="10" height="10" fill="#7f1d1d"><title>2026-11-03: missed</title></rect>"##,
            ##"<rect x="24" y="0" width="10" height="10" fill="#2f9e44"><title>2026-11-04: taken</title></rect>"##,
            ##"<text x="0" y="30" font-size="9" text-anchor="start" fill="#222">Nov</text>"##,
            ##"<rect x="0.5" y="40" width="10" height="10" fill="#2f9e44"><title>2026-11-05: taken</title></rect>"##])
        let paper = drawing.render(tooltips: false)
        #expect(!paper.contains("<title>") && !paper.contains("<rect x="))
        #expect(paper.split(separator: "\n").filter { $0.hasPrefix("<path") || $0.hasPrefix("<text") } == [
            ##"<path fill="#2f9e44" d="M0 0h10v10h-10zM24 0h10v10h-10z"/>"##,
            ##"<path fill="#7f1d1d" d="M12 0h10v10h-10z"/>"##,
            ##"<text x="0" y="30" font-size="9" text-anchor="start" fill="#222">Nov</text>"##,
            ##"<path fill="#2f9e44" d="M0.5 40h10v10h-10z"/>"##])
    }

    @Test func niceTicks() {
        #expect(NiceScale(minimum: 0, maximum: 100, maximumTicks: 6).ticks == [0, 20, 40, 60, 80, 100])
        #expect(NiceScale(minimum: 0, maximum: 7, maximumTicks: 5).ticks == [0, 2, 4, 6, 8])
        #expect(NiceScale(minimum: 3, maximum: 97, maximumTicks: 6).ticks == [0, 20, 40, 60, 80, 100])
        #expect(NiceScale(minimum: 0, maximum: 2, maximumTicks: 5).ticks == [0, 0.5, 1, 1.5, 2])
        #expect(NiceScale(minimum: 0, maximum: 2, maximumTicks: 5, minimumStep: 1).ticks == [0, 1, 2], "counts: whole ticks")
        #expect(SVGDrawing.escaped("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;")
    }
}
