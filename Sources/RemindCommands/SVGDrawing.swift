import ReminderCore

/// A small SVG drawing layer for reports: shapes and text placed in a fixed canvas, with each text's box kept so
/// that a layout can be checked (every label inside the canvas, no two overlapping). Pure: it builds a string.
struct SVGDrawing: Sendable {
    let width: Double
    let height: Double
    private var elements: [Element] = []
    /// The boxes of the texts drawn so far (x, y of the top left, width, height).
    private(set) var textBoxes: [Box] = []

    /// A rectangle in the canvas's coordinates.
    struct Box: Sendable, Hashable {
        var x, y, width, height: Double

        init(x: Double, y: Double, width: Double, height: Double) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }

        /// Whether the two share any area (touching edges do not count).
        func overlaps(_ other: Box) -> Bool {
            x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
        }

        /// Whether it lies wholly inside a canvas of that size.
        func isInside(width canvasWidth: Double, height canvasHeight: Double) -> Bool {
            x >= 0 && y >= 0 && x + width <= canvasWidth && y + height <= canvasHeight
        }
    }

    /// What is drawn: markup as it is, or a run of cells drawn one after another (see ``cell(x:y:width:height:fill:title:)``).
    private enum Element: Sendable {
        case markup(String)
        case cells([Cell])
    }

    /// A cell of a heatmap or a calendar, with the words its tooltip shows.
    private struct Cell: Sendable {
        var x, y, width, height: Double
        var fill: String
        var title: String
    }

    /// How text is anchored at its x.
    enum Anchor: String, Sendable {
        case start, middle, end
    }

    init(width: Double, height: Double) {
        (self.width, self.height) = (width, height)
    }

    /// The width a text takes in the report's sans-serif font at `size`: an estimate per character (wide
    /// characters count double), on the safe side for DejaVu Sans, which rsvg-convert uses on Debian.
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.displayWidth) * size * 0.62
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, title: String? = nil) {
        let tooltip = title.map { "<title>\(Self.escaped($0))</title>" } ?? ""
        elements.append(.markup(#"<rect x="\#(Self.number(x))" y="\#(Self.number(y))" width="\#(Self.number(width))" height="\#(Self.number(height))" fill="\#(fill)">\#(tooltip)</rect>"#))
    }

    /// One cell of many (a heatmap's, a calendar's): cells drawn one after another must not overlap. With
    /// tooltips each is a rectangle with its title; on paper, each run's cells of one colour are one path, which
    /// rsvg-convert draws in a fraction of the time (a 10-year report has 43,000 cells).
    mutating func cell(x: Double, y: Double, width: Double, height: Double, fill: String, title: String) {
        let cell = Cell(x: x, y: y, width: width, height: height, fill: fill, title: title)
        // Taken out to be extended: an array held twice would be copied at each cell.
        if case .cells = elements.last, case .cells(var run) = elements.removeLast() {
            run.append(cell)
            elements.append(.cells(run))
        } else {
            elements.append(.cells([cell]))
        }
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String) {
        elements.append(.markup(#"<line x1="\#(Self.number(x1))" y1="\#(Self.number(y1))" x2="\#(Self.number(x2))" y2="\#(Self.number(y2))" stroke="\#(stroke)"/>"#))
    }

    /// Text whose baseline is at `y`; its box (kept in ``textBoxes``) spans the font size above the baseline and
    /// a quarter of it below.
    mutating func text(_ text: String, x: Double, y: Double, size: Double = 12, anchor: Anchor = .start, weight: String? = nil, fill: String = "#222") {
        let width = Self.textWidth(text, size: size)
        let left = anchor == .start ? x : anchor == .middle ? x - width / 2 : x - width
        textBoxes.append(Box(x: left, y: y - size, width: width, height: size * 1.25))
        let bold = weight.map { #" font-weight="\#($0)""# } ?? ""
        elements.append(.markup(#"<text x="\#(Self.number(x))" y="\#(Self.number(y))" font-size="\#(Self.number(size))" text-anchor="\#(anchor.rawValue)" fill="\#(fill)"\#(bold)>\#(Self.escaped(text))</text>"#))
    }

    /// A polyline through `points` (a line chart's line).
    mutating func polyline(_ points: [(x: Double, y: Double)], stroke: String, width strokeWidth: Double = 2) {
        let list = points.map { Self.number($0.x) + "," + Self.number($0.y) }.joined(separator: " ")
        elements.append(.markup(#"<polyline points="\#(list)" fill="none" stroke="\#(stroke)" stroke-width="\#(Self.number(strokeWidth))" stroke-linejoin="round"/>"#))
    }

    /// The drawings one below the other, in a canvas as wide as the widest (their text boxes moved with them).
    static func stacked(_ drawings: [SVGDrawing]) -> SVGDrawing {
        var stacked = SVGDrawing(width: drawings.map(\.width).max() ?? 0, height: drawings.map(\.height).reduce(0, +))
        var top = 0.0
        for drawing in drawings {
            stacked.elements.append(.markup(#"<g transform="translate(0,\#(number(top)))">"#))
            stacked.elements += drawing.elements
            stacked.elements.append(.markup("</g>"))
            stacked.textBoxes += drawing.textBoxes.map { Box(x: $0.x, y: $0.y + top, width: $0.width, height: $0.height) }
            top += drawing.height
        }
        return stacked
    }

    /// Draws `drawing` with its top left corner at (`x`, `y`), scaled by `scale` (a chart placed on a page).
    mutating func place(_ drawing: SVGDrawing, x: Double, y: Double, scale: Double = 1) {
        elements.append(.markup(#"<g transform="translate(\#(Self.number(x)),\#(Self.number(y))) scale(\#(Self.number(scale)))">"#))
        elements += drawing.elements
        elements.append(.markup("</g>"))
        textBoxes += drawing.textBoxes.map { Box(x: x + $0.x * scale, y: y + $0.y * scale, width: $0.width * scale, height: $0.height * scale) }
    }

    /// The document; without `declaration`, the `<svg>` element alone (to put in an HTML page); without
    /// `tooltips` (for paper), cells are drawn as one path per colour and run.
    func render(declaration: Bool = true, tooltips: Bool = true) -> String {
        let head = #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Self.number(width))" height="\#(Self.number(height))" viewBox="0 0 \#(Self.number(width)) \#(Self.number(height))" font-family="DejaVu Sans, Verdana, sans-serif">"#
        var lines = (declaration ? [#"<?xml version="1.0" encoding="UTF-8"?>"#] : []) + [head, #"<rect width="100%" height="100%" fill="white"/>"#]
        for element in elements {
            switch element {
            case .markup(let markup): lines.append(markup)
            case .cells(let cells) where tooltips:
                for cell in cells {
                    lines.append(#"<rect x="\#(Self.number(cell.x))" y="\#(Self.number(cell.y))" width="\#(Self.number(cell.width))" height="\#(Self.number(cell.height))" fill="\#(cell.fill)"><title>\#(Self.escaped(cell.title))</title></rect>"#)
                }
            case .cells(let cells):
                var paths: [(fill: String, outline: String)] = []
                var pathOfFill: [String: Int] = [:]
                for cell in cells {
                    let index = pathOfFill[cell.fill] ?? paths.count
                    if index == paths.count {
                        pathOfFill[cell.fill] = index
                        paths.append((cell.fill, ""))
                    }
                    paths[index].outline += "M\(Self.number(cell.x)) \(Self.number(cell.y))h\(Self.number(cell.width))v\(Self.number(cell.height))h-\(Self.number(cell.width))z"
                }
                lines += paths.map { #"<path fill="\#($0.fill)" d="\#($0.outline)"/>"# }
            }
        }
        return (lines + ["</svg>"]).joined(separator: "\n") + "\n"
    }

    /// Text made safe for XML: the five entities escaped, control characters (not allowed in XML 1.0) dropped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if let entity = entities[scalar] {
                result += entity
            } else if scalar.value >= 0x20, scalar.value != 0x7F, !(0xFFFE...0xFFFF).contains(scalar.value) {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// What stands for each character XML gives a meaning to (tabs and line breaks: a space).
    private static let entities: [Unicode.Scalar: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\t": " ", "\n": " "]


    /// `12`, `12.5`: a coordinate with at most two decimals.
    static func number(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let (sign, whole, fraction) = (hundredths < 0 ? "-" : "", abs(hundredths) / 100, abs(hundredths) % 100)
        guard fraction > 0 else { return sign + String(whole) }
        let digits = fraction % 10 == 0 ? String(fraction / 10) : (fraction < 10 ? "0" : "") + String(fraction)
        return sign + String(whole) + "." + digits
    }

}

/// Axis ticks at "nice" numbers (1, 2 or 5 times a power of ten) covering a range, as Heckbert's labelling does:
/// what a reader can add up at a glance.
struct NiceScale: Sendable, Hashable {
    let lower: Double
    let upper: Double
    let step: Double

    /// At most `maximumTicks` (at least 2) ticks from at or below `minimum` to at or above `maximum`, at least
    /// `minimumStep` apart (1 for counts: no tick at 0.5 doses).
    init(minimum: Double, maximum: Double, maximumTicks: Int = 6, minimumStep: Double = 0) {
        let span = Self.nice(max(maximum - minimum, 1e-9), round: false)
        let step = max(minimumStep, Self.nice(span / Double(max(1, maximumTicks - 1)), round: true))
        self.step = step
        lower = (minimum / step).rounded(.down) * step
        upper = (maximum / step).rounded(.up) * step
    }

    /// The ticks, lower to upper.
    var ticks: [Double] {
        let count = Int(((upper - lower) / step).rounded())
        return (0...max(0, count)).map { lower + Double($0) * step }
    }

    /// The nice number near `value`: 1, 2, 5 or 10 times its power of ten (rounded, or the next up).
    static func nice(_ value: Double, round: Bool) -> Double {
        var power = 1.0
        while power * 10 <= value { power *= 10 }
        while power > value { power /= 10 }
        let fraction = value / power
        let niceFraction: Double
        if round {
            niceFraction = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        } else {
            niceFraction = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        }
        return niceFraction * power
    }
}
