import CommentTUI
import XCTest

/// Asserts that a buffer shows `expected`: lines in pairs, each row's text then its style
/// letters (see `ScreenLines`), with `legend` naming the styles by letter.
///
/// On failure the message lists each differing row, expected above actual with a `^` at the
/// first differing column, names every style the legend lacks (`?`), and prints the whole
/// actual screen as Swift lines to paste.
public func assertScreen(
    _ buffer: CellBuffer, _ expected: [String], legend: [Character: CellStyle] = [:],
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) {
    if let problem = legendProblem(legend) {
        XCTFail("bad legend: \(problem)", file: file, line: line)
        return
    }
    let actual = ScreenLines(buffer, legend: legend)
    guard let difference = actual.difference(from: ScreenLines(expected)) else { return }
    var report = ["screen (\(buffer.columns)x\(buffer.rows)) differs from the expected one" + suffix(message()), difference]
    report.append("legend: " + legendText(legend))
    let unnamed = unnamedStyles(in: buffer, legend: legend)
    if !unnamed.isEmpty {
        report.append("styles not in the legend ('?'): " + unnamed.map(describe).joined(separator: "; "))
    }
    report.append("actual screen:\n\(actual)")
    XCTFail(report.joined(separator: "\n"), file: file, line: line)
}

private func suffix(_ message: String) -> String { message.isEmpty ? "" : ": " + message }

/// Why a legend cannot be read back unambiguously, if it cannot.
private func legendProblem(_ legend: [Character: CellStyle]) -> String? {
    if legend[ScreenLines.plainLetter] != nil || legend[ScreenLines.unnamedLetter] != nil {
        return "' ' (plain) and '?' (not in the legend) are reserved"
    }
    if let plain = legend.first(where: { $0.value == .plain }) {
        return "'\(plain.key)' names the plain style, which is always ' '"
    }
    let byStyle = Dictionary(grouping: legend.keys, by: { legend[$0]! })
    if let shared = byStyle.values.first(where: { $0.count > 1 }) {
        return "letters \(shared.sorted().map { "'\($0)'" }.joined(separator: ", ")) name one style"
    }
    return nil
}

private func legendText(_ legend: [Character: CellStyle]) -> String {
    let named = legend.sorted { $0.key < $1.key }.map { "\($0.key) = \(describe($0.value))" }
    return (named + ["' ' = plain"]).joined(separator: ", ")
}

/// Each style the legend does not name, once, in reading order.
private func unnamedStyles(in buffer: CellBuffer, legend: [Character: CellStyle]) -> [CellStyle] {
    let named = Set(legend.values)
    var found: [CellStyle] = []
    for row in 0..<buffer.rows {
        for column in 0..<buffer.columns {
            let style = buffer[column, row].style
            if style != .plain, !named.contains(style), !found.contains(style) { found.append(style) }
        }
    }
    return found
}

/// A style in words: `bold+reverse fg=red bg=235`.
private func describe(_ style: CellStyle) -> String {
    let names: [(TextAttributes, String)] = [(.bold, "bold"), (.dim, "dim"), (.italic, "italic"),
                                             (.underline, "underline"), (.reverse, "reverse")]
    var parts = [names.filter { style.attributes.contains($0.0) }.map(\.1).joined(separator: "+")]
    if style.foreground != .default { parts.append("fg=" + describe(style.foreground)) }
    if style.background != .default { parts.append("bg=" + describe(style.background)) }
    let text = parts.filter { !$0.isEmpty }.joined(separator: " ")
    return text.isEmpty ? "plain" : text
}

private func describe(_ color: TerminalColor) -> String {
    let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "gray"]
    switch color {
    case .default: return "default"
    case .palette(let index): return Int(index) < names.count ? names[Int(index)] : String(index)
    }
}
