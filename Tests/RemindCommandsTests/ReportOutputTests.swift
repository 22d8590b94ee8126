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

    var harness = CommandHarness(daemon: StubDaemon(replies: ["io.remindd.Reminders.Report": reply]))

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
              - due  ✕ missed  · skipped  □ suppressed  ■ taken  ◆ taken-late
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

    @Test func privateLeavesTheNamesOut() {
        let result = harness.run("report", "--private")
        #expect(!result.output.contains("Metformin") && result.output.contains("Medication 1  21"))
        #expect(!harness.run("report", "--private", "--json").output.contains("Metformin"))
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
        private var open: (x: Double, y: Double, size: Double, anchor: String)?
        private var content = ""
        private var rectFill: String?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            func number(_ key: String) -> Double { Double(attributes[key] ?? "") ?? .nan }
            switch name {
            case "svg": size = (number("width"), number("height"))
            case "text": (open, content) = ((number("x"), number("y"), number("font-size"), attributes["text-anchor"] ?? "start"), "")
            case "rect": rectFill = attributes["fill"]
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
            if name == "title", let rectFill { cells[content] = rectFill }
            if name == "rect" { rectFill = nil }
        }
    }

    @Test func theLabelsLieInsideAndApartAndEachCellHasItsStatesColour() throws {
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
        #expect(harness.run("report", "--format", "gif").error?.contains("unknown --format 'gif': write text or svg") == true)
    }

    @Test func niceTicks() {
        #expect(NiceScale(minimum: 0, maximum: 100, maximumTicks: 6).ticks == [0, 20, 40, 60, 80, 100])
        #expect(NiceScale(minimum: 0, maximum: 7, maximumTicks: 5).ticks == [0, 2, 4, 6, 8])
        #expect(NiceScale(minimum: 3, maximum: 97, maximumTicks: 6).ticks == [0, 20, 40, 60, 80, 100])
        #expect(SVGDrawing.escaped("a<b & \"c\"\u{1}") == "a&lt;b &amp; &quot;c&quot;")
    }
}
