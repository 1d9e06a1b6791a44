import ScrollEngine
import Foundation
import ThreadModel

/// An edit of the draft by typing, which the mention list follows.
enum DraftEdit: Equatable {
    case typed(Character)
    case deletedBackward
}

/// What the app asks of the loop that runs it.
public enum AppCommand: Equatable, Sendable {
    case quit
    case suspend
    /// Repaint every cell (Ctrl-L, after resume).
    case redrawAll
    /// Run the user's editor on this text (Ctrl-X Ctrl-E), then call `finishExternalEdit`.
    case editExternally(String)
}

/// The client's state and screens, free of any terminal: events in, frames out.
public final class CommentApp {
    /// The thread on screen.
    public internal(set) var thread: CommentThread
    /// The user who writes.
    public let me: User
    /// A short name for the thread in the status bar.
    public let threadLabel: String
    /// The draft in the composer.
    public internal(set) var draft = ComposerDocument() {
        didSet { draftDidChange() }
    }
    /// Counts changes of the draft, so its layout is cached until the next one.
    var draftRevision = 0
    var composerCache: (revision: Int, width: Int, rows: Int, window: ComposerWindow)?
    /// Ctrl-X was pressed: the next key picks a format or the editor.
    var pendingControlX = false
    /// Ctrl-X Ctrl-E was pressed: the loop runs the editor once the key is handled.
    var pendingExternalEdit = false
    /// The @mention list, while open.
    var mentionPicker: MentionPicker?
    var mentionRanker: MentionRanker?
    var mentionRecencyIsStale = false
    /// How the current event changed the draft, for the mention list (nil: not by typing).
    var draftEdit: DraftEdit?
    /// Where the mouse pointer was last reported (F2 names the layer under it).
    var pointer: (column: Int, row: Int)?
    /// F2: the screen shaded by which layer receives a click.
    var showsHitTest = false
    /// Saves the draft (its encoded bytes, or nil to delete it); nil keeps drafts in memory only.
    public var saveDraft: ((Data?) throws -> Void)?
    /// When the draft's pending save is due, if one is, and since when it has unsaved changes.
    var draftSaveDue: ScrollInstant?
    var draftDirtySince: ScrollInstant?
    /// Comments of the thread file before `thread.comments`, read on demand; nil when all are in memory.
    public let store: CommentStore?
    /// The feed's scroll engine; its items are the comments (and the post's collapsing rows).
    lazy var feedScroll: FeedScroll = makeFeedScroll()
    /// The monotonic time: scroll inputs carry it, frames advance the engine to it.
    /// The loop sets it before each event and frame; tests advance it themselves.
    public internal(set) var now = ScrollInstant.zero
    /// How the collapsing header snaps when scrolling ends part-way (`--snap`).
    public var snapMode: SnapMode = .projected {
        didSet { feedScroll.snapMode = snapMode }
    }
    /// Scroll observer events for the F3 panel.
    let scrollEvents = ScrollEventLog()
    var showsScrollEvents = false
    /// The running Ctrl-S search, if any.
    var search: FeedSearch?
    /// The mouse gesture in progress on the feed, if any.
    var feedGesture: FeedGesture?
    /// The last message shown in the status bar.
    public internal(set) var message: String?
    var messageIsError = false
    var showsHelp = false
    /// Comments that arrived while the feed was not at the bottom.
    public internal(set) var newCount = 0
    /// Saves a sent comment (appends it to the thread file); nil keeps comments in memory only.
    /// A throw keeps the draft and shows the error.
    public var post: ((Comment) throws -> Void)?
    /// Makes F12 a deliberate fatal error, so tests can check the crash path end to end.
    public var allowsCrashTest = false
    /// The comment selected with Alt-Up/Alt-Down, by feed position.
    var selectedComment: Int?
    /// Spoilers revealed while the client runs, by comment id.
    var revealedSpoilers: [String: Set<Int>] = [:]
    /// Long comments the reader expanded, by comment id.
    var expandedComments: Set<String> = []
    /// User ids by lowercased handle, for the mentions in comment bodies (see `handleID`).
    var userIDsByHandle: [String: String] = [:]
    /// The wall-clock time: relative times count to it, link visibility is timed by it.
    /// The loop sets it before each frame; tests set it themselves.
    public var wallTime = Date(timeIntervalSince1970: 0)
    /// Which links were seen whole, and for how long.
    public internal(set) var linkVisibility = LinkVisibility()
    /// Opens a link in a browser; false when none could. Nil shows the URL instead.
    public var openLink: ((String) -> Bool)?
    /// The first comment not read when the thread was opened (the "new" divider sits above it).
    public var firstUnread: Int? {
        didSet {
            layoutCache?.invalidateAll()
            feedScroll.invalidateAll()
        }
    }
    /// The newest comment whose header has been on screen: what the read marker saves.
    public internal(set) var lastSeen: Int?
    /// Set when a comment mentioning the reader arrives; the next frame rings the bell.
    var bellPending = false

    private(set) var size: (columns: Int, rows: Int)
    var layoutCache: FeedLayout?
    var headerCache: ThreadHeaderLayout?
    /// The feed's top comment in the last frame and the viewport row its first row was on.
    var lastFeedFrame: (comment: Int, start: Int, feed: CellRect)?

    /// - Parameter store: comments that precede `thread.comments` (a big file's index), if any.
    public init(thread: CommentThread, store: CommentStore? = nil, me: User, threadLabel: String, columns: Int, rows: Int) {
        self.thread = thread
        self.store = store
        self.me = me
        self.threadLabel = threadLabel
        size = (columns, rows)
        self.thread.add(me)
        indexHandles()
    }

    private func makeFeedScroll() -> FeedScroll {
        let scroll = FeedScroll(commentCount: commentCount, viewportRows: regions.feed.height, columns: size.columns,
                                postRows: headerPostRows, configuration: ScrollConfiguration(), now: now)
        scroll.snapMode = snapMode
        scrollEvents.observe(scroll.model)
        return scroll
    }

    /// Moves the app's clock to `time` (the loop's monotonic clock, or a test's) and the feed with it.
    public func advance(to time: ScrollInstant) {
        now = max(now, time)
        feedScroll.model.advance(to: now)
        mentionPicker?.model.advance(to: now)
        saveDraftIfDue()
    }

    /// When the app next needs a frame without input: now while the feed moves, else its next
    /// timer (wheel burst end, debounced end), else nil.
    /// A pending draft save counts too.
    public var nextDeadline: ScrollInstant? {
        [feedScroll.model.nextDeadline, mentionPicker?.model.nextDeadline, draftSaveDue].compactMap { $0 }.min()
    }

    /// Work that must not wait for a timer when the client stops (or is suspended, or hands the
    /// terminal to an editor): the draft's pending save. Returns the draft as Markdown when it
    /// could not be saved, so the caller can still put it somewhere.
    @discardableResult
    public func prepareToExit() -> (error: Error, markdown: String)? {
        guard let error = saveDraftIfDue(force: true) else { return nil }
        return (error, draft.markdown)
    }

    /// The id of the user with a handle, ignoring case.
    func handleID(_ handle: String) -> String? { userIDsByHandle[handle.lowercased()] }

    /// Rebuilds the handle → id map after users were added.
    func indexHandles() {
        userIDsByHandle = thread.userIDsByLowercasedHandle
    }

    /// Adapts to a new terminal size.
    public func resize(columns: Int, rows: Int) {
        size = (columns, rows)
    }

    var isTooSmall: Bool {
        size.columns < NoticeView.minimumSize.columns || size.rows < NoticeView.minimumSize.rows
    }

    // MARK: Layout

    struct Regions {
        var header: CellRect
        var feed: CellRect
        var composerRule: Int
        var composer: CellRect
        var status: Int
    }

    var regions: Regions {
        let width = size.columns
        let composerHeight = min(composerView.height, composerMaximumRows)
        let status = size.rows - 1
        let composer = CellRect(column: 0, row: status - composerHeight, width: width, height: composerHeight)
        let header = CellRect(column: 0, row: 0, width: width, height: HeaderView.collapsedHeight)
        let feed = CellRect(column: 0, row: header.maxRow, width: width, height: composer.row - 1 - header.maxRow)
        return Regions(header: header, feed: feed, composerRule: composer.row - 1, composer: composer, status: status)
    }

    // MARK: Rendering

    /// Draws the whole screen.
    public func render() -> Frame {
        var buffer = CellBuffer(columns: size.columns, rows: size.rows)
        var drawn = FeedView.Drawn()
        defer {
            linkVisibility.update(visible: drawn.links, at: wallTime)
            if let shown = drawn.lastHeaderShown { lastSeen = max(lastSeen ?? shown, shown) }
        }
        guard !isTooSmall else {
            NoticeView.drawTooSmall(into: &buffer)
            return Frame(buffer: buffer, cursor: nil)
        }
        prepareFeed()
        let r = regions
        if showsHelp {
            NoticeView.drawHelp(into: &buffer, rect: CellRect(column: 0, row: 0, width: size.columns, height: r.status))
        } else {
            drawn = feedView.draw(into: &buffer, rect: r.feed)
            FeedChrome(scroll: feedScroll, newCount: newCount).draw(into: &buffer, rect: chromeRect)
            if let picker = mentionPicker {
                picker.relayout(feed: r.feed, now: now)
                MentionPickerView(picker: picker).draw(into: &buffer)
            }
            if showsScrollEvents { scrollEvents.draw(into: &buffer, rect: r.feed) }
        }
        var cursor: CursorPosition?
        // The help page takes the header's and the composer's rows too, so every key fits.
        if !showsHelp {
            HeaderView(thread: thread, commentCount: commentCount, layout: threadHeader,
                       shownRows: feedScroll.postRowsShown, ownUserID: me.id)
                .draw(into: &buffer, width: size.columns)
            buffer.write(repeating: "─", count: size.columns, column: 0, row: r.composerRule, style: Theme.rule)
            cursor = search.map { SearchBarView(query: $0.query).draw(into: &buffer, rect: r.composer) }
                ?? composerView.draw(into: &buffer, rect: r.composer)
        }
        StatusBarView(
            handle: me.handle, threadLabel: threadLabel, phase: phaseUnderPointer.rawValue, position: feedPosition,
            newCount: newCount, message: showsHitTest ? pointerDescription : message, isError: messageIsError && !showsHitTest
        ).draw(into: &buffer, row: r.status, width: size.columns)
        if showsHitTest { drawHitTest(into: &buffer) }
        var frame = Frame(buffer: buffer, cursor: cursor)
        frame.composerRows = r.composer.row..<r.composer.maxRow
        frame.scroll = showsHelp ? nil : feedScrollSinceLastFrame(feed: r.feed)
        frame.reportsPointerMotion = showsHitTest
        frame.ringsBell = bellPending
        bellPending = false
        return frame
    }

    // MARK: Actions

    /// Posts the draft as a comment of `me`.
    func send(now: Date) {
        let body = draft.markdown.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { return }
        // Whole seconds: what the file stores, so the feed shows the same time after a reload.
        let created = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let comment = Comment(id: ThreadFileWriter.newCommentID(), author: me.id, created: created, body: body)
        do {
            try post?(comment)
        } catch {
            show("not sent, draft kept: \(error)", error: true)
            return
        }
        // The feed's model must exist before the thread grows, or it would count the comment twice.
        let scroll = feedScroll
        thread.append(comment)
        scroll.commentsAppended(1)
        draft.clear()
        saveDraftIfDue(force: true)
        scrollFeedToBottom()
        show(post == nil ? "posted (in memory only)" : "posted")
    }

    func show(_ text: String, error: Bool = false) {
        message = text
        messageIsError = error
    }
}
