import ScrollEngine
import ThreadModel

/// A move or an act in a page (the F1 key page, the post reader).
enum PageKey: Equatable {
    case rowUp, rowDown, pageUp, pageDown, top, bottom
    case toggleSpoilers, openLink
}

/// A full-screen page of text, read by scrolling: the F1 key page, or the thread's post whole.
///
/// The title on the first row, the text below it, a status line on the last row saying which
/// lines show. Rows move at once, by whole rows, only on input: a page has no motion of its
/// own, so it asks for no frames (no glide, no timers) and the client stays idle while it shows.
struct Pager {
    /// What the page shows.
    enum Content {
        /// The key table (F1).
        case keys
        /// The thread's post: its markup, and the user ids its `@handles` name.
        case post(body: String, handles: (String) -> String?)
        /// Who reacted to a comment: each key in a bold column, the names beside it (F2).
        case reactors([KeyHelp])
        /// The members, each with their trust and their devices' (F4), laid out as `reactors`.
        case members([KeyHelp])
    }

    /// Rows of chrome: the title above the text, the status line below it.
    static let chromeRows = 2
    /// Columns the text is inset by on each side (as the header's post rows are).
    static let margin = 1
    /// Rows a wheel notch moves: the feed's slow notch, without its glide (a page never moves by itself).
    static let wheelRows = 3

    let content: Content
    let title: String
    /// What follows the title, dimmed (the post's author and date).
    let details: String?
    private(set) var text: PageText
    /// The first line shown.
    private(set) var top = 0
    /// The screen's size.
    private(set) var size: (columns: Int, rows: Int)
    /// Spoilers the reader revealed (a click, Alt-S).
    private(set) var revealedSpoilers: Set<Int> = []
    /// Body bytes of the post laid out ("show more" adds to them, as on a comment).
    private var bodyBytes = FeedLayout.shownBodyBytes

    init(_ content: Content, title: String, details: String? = nil, columns: Int, rows: Int) {
        self.content = content
        self.title = title
        self.details = details
        size = (columns, rows)
        text = PageText(width: 4, lines: [])
        text = layOut()
    }

    /// Whether this is the post's page.
    var isPostPage: Bool {
        if case .post = content { return true }
        return false
    }

    /// Whether this is the F1 key page.
    var isKeyPage: Bool {
        if case .keys = content { return true }
        return false
    }

    // MARK: Geometry

    /// Where the text goes on screen: below the title, above the status line.
    var textRect: CellRect {
        CellRect(column: Self.margin, row: 1, width: size.columns - 2 * Self.margin, height: size.rows - Self.chromeRows)
    }

    /// Text rows on screen (at least one, so a page always moves).
    var rows: Int { max(1, textRect.height) }

    /// The lines on screen.
    var shownLines: Range<Int> { top..<min(text.lines.count, top + rows) }

    /// The top line that shows the last line on the last row (0 when everything fits).
    var lastTop: Int { max(0, text.lines.count - rows) }

    /// `lines 1–20 of 57`: where the reader is.
    var positionText: String {
        let shown = shownLines
        let count = text.lines.count
        if shown.count <= 1 { return "line \(shown.lowerBound + 1) of \(count)" }
        return "lines \(shown.lowerBound + 1)–\(shown.upperBound) of \(count)"
    }

    // MARK: Moving

    /// Carries out a page key; returns what the app must do (open a link, say something).
    mutating func handle(_ key: PageKey) -> FeedEffect? {
        switch key {
        case .rowUp: scroll(by: -1)
        case .rowDown: scroll(by: 1)
        // A page keeps one row of the last in view, as the feed's does.
        case .pageUp: scroll(by: -max(1, rows - 1))
        case .pageDown: scroll(by: max(1, rows - 1))
        case .top: top = 0
        case .bottom: top = lastTop
        case .toggleSpoilers: return toggleSpoilers()
        case .openLink:
            guard let url = text.firstLink(in: shownLines, revealed: revealedSpoilers) else {
                return .message("no visible link on this page")
            }
            return .open(url)
        }
        return nil
    }

    /// Moves the text by `rows` (up when negative), within its ends.
    mutating func scroll(by rows: Int) {
        top = min(max(0, top + rows), lastTop)
    }

    /// A new screen size: the text is wrapped again and the line on top stays there.
    mutating func resize(columns: Int, rows: Int) {
        guard columns != size.columns || rows != size.rows else { return }
        let place = text.place(ofLine: top)
        size = (columns, rows)
        if textRect.width != text.width { text = layOut() }
        top = min(text.line(at: place), lastTop)
    }

    /// Wraps the text again at the same size (clusters changed width); the line on top stays.
    mutating func layOutAgain() {
        let place = text.place(ofLine: top)
        text = layOut()
        top = min(text.line(at: place), lastTop)
    }

    // MARK: The text

    private func layOut() -> PageText {
        let width = max(4, textRect.width)
        switch content {
        case .keys: return .keys(width: width)
        case .post(let body, let handles): return PageText(markup: body, handles: handles, width: width, bodyBytes: bodyBytes)
        case .reactors(let lines), .members(let lines): return .keys(width: width, lines: lines)
        }
    }

    /// Reveals every spoiler, or hides them again if all show.
    mutating func toggleSpoilers() -> FeedEffect? {
        guard !text.spoilers.isEmpty else { return .message("no spoilers here") }
        revealedSpoilers = revealedSpoilers == text.spoilers ? [] : text.spoilers
        return nil
    }

    /// A mouse event: the wheel scrolls; a press reveals a spoiler, opens a link, or lays out
    /// more of a huge post.
    mutating func handle(_ mouse: MouseEvent) -> FeedEffect? {
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _): scroll(by: -Self.wheelRows)
        case (.wheelDown, _): scroll(by: Self.wheelRows)
        case (.left, .press):
            let rect = textRect
            guard rect.contains(column: mouse.column, row: mouse.row),
                  let style = text.style(line: top + mouse.row - rect.row, column: mouse.column - rect.column) else { return nil }
            if let spoiler = style.spoiler, !revealedSpoilers.contains(spoiler) {
                revealedSpoilers.insert(spoiler)
            } else if style.role == .showAllMarker {
                showMore()
            } else if let url = style.link {
                return .open(url)
            }
        default: break
        }
        return nil
    }

    /// Lays out the next step of a huge post (the line offering it stays where it was).
    private mutating func showMore() {
        let place = text.place(ofLine: top)
        bodyBytes = FeedLayout.limit(after: bodyBytes)
        text = layOut()
        top = min(text.line(at: place), lastTop)
    }
}
