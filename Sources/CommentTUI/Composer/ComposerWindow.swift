import Foundation
import ThreadModel

/// The part of the draft the composer can show: the lines around the caret, styled and wrapped.
///
/// The composer shows at most a third of the screen, so only that many lines (or, for very long
/// lines, that many rows' worth of characters) on each side of the caret are laid out: a
/// keystroke in a 1 MB draft costs what it costs in a short one. Typed Markdown is styled
/// within the window, so a span opened far above it shows plain until scrolled to.
struct ComposerWindow {
    /// The window's rows.
    let layout: ComposerLayout
    /// The caret's offset inside the window.
    let caret: Int
    /// Whether the draft goes on above the window (the composer shows `↑` then).
    let clippedAbove: Bool

    /// Lays out the lines around the caret: `rows` rows' worth on each side at `width` columns.
    init(document: ComposerDocument, width: Int, rows: Int, handles: (String) -> String?) {
        let characters = document.text.characters
        let lines = rows + 1
        let reach = (rows + 1) * max(1, width)
        var lower = document.caret, before = 0, newlines = 0
        while lower > characters.startIndex, before < reach {
            let previous = characters.index(before: lower)
            if characters[previous] == "\n" {
                newlines += 1
                if newlines > lines { break }
            }
            lower = previous
            before += 1
        }
        var upper = document.caret, after = 0
        newlines = 0
        while upper < characters.endIndex, after < reach {
            if characters[upper] == "\n" {
                newlines += 1
                if newlines > lines { break }
            }
            upper = characters.index(after: upper)
            after += 1
        }
        let slice = AttributedString(document.text[lower..<upper])
        caret = before
        clippedAbove = lower > characters.startIndex
        // The selection, clipped to the window, as offsets inside it.
        let selection = document.selection.clamped(to: lower..<upper)
        let selected = selection.isEmpty ? 0..<0
            : characters.distance(from: lower, to: selection.lowerBound)..<characters.distance(from: lower, to: selection.upperBound)
        layout = ComposerLayout(characters: slice.characters, styles: ComposerStyling.styles(of: slice, handles: handles),
                                selection: selected, width: width)
    }
}
