import Foundation
import ThreadModel

/// What a run of laid-out cells is, read once from the comment's attributes: the renderer
/// chooses colours and effects from it, and clicks find spoilers, links and markers by it.
struct TextRunStyle: Hashable, Sendable {
    /// What the cells are part of: the comment's text, or decoration the layout added.
    enum Role: Hashable, Sendable {
        case text
        /// The `│ ` bars in front of quoted lines.
        case quoteBar
        /// A list item's `• ` or `3. `.
        case listMarker
        /// A heading's `# ` or `## `.
        case headingMarker
        /// ` (host)` after a link whose text is not its URL.
        case linkHost
        /// `… 27 more lines` on a collapsed comment, `⌃ show less` on an expanded one.
        case expandMarker
        /// `… 5.9 MB more · show 1 MB more` (or `show all`) after the part of a huge body laid out.
        case showAllMarker
        /// A ruby reading, on the row above its base.
        case rubyReading
        /// A spoiler in a reply's quote (`ReplyQuote`): mask cells only, never revealed there.
        case maskedSpoiler
    }

    var role: Role = .text
    var strong = false
    var emphasis = false
    var strikethrough = false
    var code = false
    var codeBlock = false
    var quoteDepth = 0
    /// The link target.
    var link: String?
    /// The mentioned user id.
    var mention: String?
    /// The spoiler's number within its comment.
    var spoiler: Int?
    /// The ruby annotation the cells are the base of.
    var ruby: RubyAnnotation?

    static let plain = TextRunStyle()

    /// The style of a run of a parsed comment.
    init(_ markup: MarkupStyle) {
        strong = markup.strong
        emphasis = markup.emphasis
        strikethrough = markup.strikethrough
        code = markup.code
        link = markup.link
        mention = markup.mention
        spoiler = markup.spoiler
        ruby = markup.ruby
        if let block = markup.block {
            quoteDepth = block.quoteDepth
            switch block.role {
            case .codeBlock: codeBlock = true
            // A heading is a bold line.
            case .heading: strong = true
            case .paragraph, .listItem: break
            }
        }
    }

    init(role: Role = .text) { self.role = role }
}
