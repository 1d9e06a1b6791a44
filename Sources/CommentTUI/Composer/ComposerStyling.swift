import Foundation
import ThreadModel

/// How each character of the draft looks: formatted runs (Ctrl-X b…) by their attributes, and
/// typed Markdown as it will render once sent, with its markers dimmed.
///
/// Typed markup is found by parsing the draft's text as a comment body and aligning the parsed
/// characters with the typed ones: the parser only removes characters (markers, escapes), so a
/// greedy walk pairs every parsed character with the typed one it came from, and the typed
/// characters left unpaired are the markers.
enum ComposerStyling {
    /// What one typed character is.
    struct CharacterStyle: Equatable {
        var run: TextRunStyle
        /// A Markdown marker that will not show once sent (`**`, `||`, a backslash escape).
        var isMarker = false
    }

    /// The style of every Character of `text`, in order.
    static func styles(of text: AttributedString, handles: (String) -> String?) -> [CharacterStyle] {
        var own: [TextRunStyle] = []
        own.reserveCapacity(text.characters.count)
        for run in text.runs {
            let style = TextRunStyle(MarkupStyle(run.attributes))
            own += repeatElement(style, count: text.characters[run.range].count)
        }
        let typed = Array(text.characters)
        let parsed = CommentMarkup.parse(String(typed), handles: handles)
        var styles = own.map { CharacterStyle(run: $0) }
        var i = 0
        for run in parsed.runs {
            let style = TextRunStyle(MarkupStyle(run.attributes))
            for character in parsed.characters[run.range] {
                while i < typed.count, typed[i] != character {
                    styles[i].isMarker = true
                    i += 1
                }
                guard i < typed.count else { return styles }
                styles[i].run.merge(style)
                i += 1
            }
        }
        while i < typed.count {
            styles[i].isMarker = true
            i += 1
        }
        return styles
    }
}

extension TextRunStyle {
    /// Adds the inline effects of another style (typed Markdown over a formatted run).
    mutating func merge(_ other: TextRunStyle) {
        strong = strong || other.strong
        emphasis = emphasis || other.emphasis
        strikethrough = strikethrough || other.strikethrough
        code = code || other.code || other.codeBlock
        link = link ?? other.link
        mention = mention ?? other.mention
        spoiler = spoiler ?? other.spoiler
        quoteDepth = max(quoteDepth, other.quoteDepth)
    }
}
