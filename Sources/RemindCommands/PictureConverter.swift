import FoundationEssentials
import ReminderCore
import Glibc

/// PNG and PDF made from the report's SVG by `rsvg-convert` (librsvg: Debian's `librsvg2-bin`), found on `PATH`
/// when asked for. Chosen over linking cairo through a C module: remindctl keeps no build-time or load-time
/// dependency on a graphics stack for the one command that needs it, librsvg is the renderer GNOME itself
/// draws SVG with (its PDF keeps the text as text, which `pdftotext` and screen readers find), and without it
/// the other formats still work and the error says what to install.
enum PictureConverter {
    /// The Debian package that has `rsvg-convert`.
    static let package = "librsvg2-bin"

    /// What a picture is made as: rsvg-convert's name for it.
    enum Format: String {
        case png, pdf

        /// A PNG at twice the SVG's size (sharp on a high-density screen) while it stays within cairo's 32,767
        /// pixels a side, else at its size; a PDF at its points.
        func zoom(height: Double) -> String { self == .png && height * 2 <= 32_767 ? "2" : "1" }
    }

    /// The `format` picture of `svg` (`height` pixels tall), whole.
    static func convert(_ svg: String, height: Double, to format: Format, environment: [String: String]) throws -> Data {
        try run(pages: [svg], format: format, options: ["--zoom", format.zoom(height: height)], environment: environment)
    }

    /// A PDF of pages on `paper`: each SVG (drawn at the paper's size in points) one page.
    static func pdf(pages: [String], paper: ReportPages.Paper, environment: [String: String]) throws -> Data {
        let (width, height) = (SVGDrawing.number(paper.size.width) + "pt", SVGDrawing.number(paper.size.height) + "pt")
        return try run(pages: pages, format: .pdf, options: ["--page-width", width, "--page-height", height, "--width", width, "--height", height], environment: environment)
    }

    /// Runs rsvg-convert on `pages` (one file each, in order) with `options`. - Returns: what it made.
    private static func run(pages: [String], format: Format, options: [String], environment: [String: String]) throws -> Data {
        guard let tool = executable("rsvg-convert", path: environment["PATH"] ?? "/usr/bin:/bin") else {
            throw CLIError("--format \(format.rawValue) needs rsvg-convert: install the \(package) package (sudo apt install \(package)), or use --format svg or html")
        }
        let folder = try temporaryFolder(environment: environment)
        defer { try? FileManager.default.removeItem(atPath: folder) }  // best effort: a temporary folder of ours
        let output = folder + "/report." + format.rawValue
        var inputs: [String] = []
        for (index, svg) in pages.enumerated() {
            inputs.append(folder + "/page-\(index + 1).svg")
            try Data(svg.utf8).write(to: URL(fileURLWithPath: inputs[index]))
        }
        let (status, said) = try runTool(tool, ["--format", format.rawValue] + options + ["--output", output] + inputs)
        guard status == 0, let picture = FileManager.default.contents(atPath: output) else {
            throw CLIError("rsvg-convert could not make the \(format.rawValue.uppercased()): \(said.isEmpty ? "exit status \(status)" : said)")
        }
        return picture
    }

    /// The first executable `name` in the colon-separated `path`.
    static func executable(_ name: String, path: String) -> String? {
        path.split(separator: ":").map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
    }

    /// A new private folder under `TMPDIR` (else /tmp).
    private static func temporaryFolder(environment: [String: String]) throws -> String {
        var template = Array(((environment["TMPDIR"] ?? "/tmp") + "/remindctl-report-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIError("cannot make a temporary folder for rsvg-convert: set TMPDIR to a folder you can write to")
        }
        return String(cString: made)
    }
}
