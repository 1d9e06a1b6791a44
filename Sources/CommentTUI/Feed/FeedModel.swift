import Foundation
import ScrollEngine
import ThreadModel

/// What a feed action asks of the rest of the app.
enum FeedEffect: Equatable {
    /// A line for the status bar.
    case message(String, isError: Bool = false)
    /// Open a link (in the browser, or show it).
    case open(String)
    /// Show the thread's post whole (the header shows only its first rows).
    case readPost
    /// Go to the comment a reply answers (by id).
    case jumpToReplied(String)
}

/// The feed: its scroll engine, layout caches, selection, spoilers, expanded comments, unread
/// state, search, the mouse gesture in progress, and which links were seen.
///
/// Reads the thread's comments, never changes them; the app tells it when they grew. The state
/// is changed only by this type's own files (`FeedModel+…`).
final class FeedModel {
    /// The feed's scroll engine; its items are the comments (and the post's collapsing rows).
    let scroll: FeedScroll
    let comments: ThreadComments
    var me: String
    /// The feed's rectangle on screen and the terminal's width, as of the last `prepare`.
    private(set) var rect: CellRect
    private(set) var columns: Int
    /// The app's clock: scroll inputs and effects start at its time.
    let clock: AppClock
    /// The time now, by the app's clock.
    var now: ScrollInstant { clock.now }
    private var layoutCache: FeedLayout
    private var headerCache: ThreadHeaderLayout?
    /// The comment selected with Alt-Up/Alt-Down, a search or a click, by feed position.
    var selected: Int?
    /// Spoilers revealed while the client runs, by comment id.
    var revealedSpoilers: [String: Set<Int>] = [:]
    /// Our comments not in the thread yet, by id (set by the app from the source's reports).
    var delivery: (String) -> CommentDelivery? = { _ in nil }
    /// The quote a reply opens with (what it answers); set by the app.
    var replyQuote: (Comment) -> ReplyQuote? = { _ in nil }
    /// Whether a comment is a row in place of what cannot be shown (`ThreadSource.isPlaceholder`).
    var isPlaceholder: (String) -> Bool = { _ in false }
    /// Whether a sender's cryptographic identity changed (`ThreadSource.senderIdentityChanged`).
    var identityChanged: (String) -> Bool = { _ in false }
    /// How far a sender is trusted (`ThreadSource.senderTrust`).
    var senderTrust: (String) -> SenderTrust? = { _ in nil }
    /// The reactions to a comment, by id; set by the app.
    var reactions: (String) -> [ReactionCount] = { _ in [] }
    /// The summary of the post a comment is the root of, by id; set by the app.
    var postSummary: (String) -> PostSummary? = { _ in nil }
    /// Long comments the reader expanded, by comment id.
    var expandedComments: Set<String> = []
    /// Body bytes shown of huge comments the reader asked to see more of ("show more"), by comment id.
    var shownBodyBytes: [String: Int] = [:]
    /// Transitions running on comments (a spoiler dissolving, an arrival, a glow, a flash).
    var effects = TextEffects()
    /// How fades look on this terminal.
    var palette = EffectPalette(colorCount: 256)
    /// The running Ctrl-S search, if any.
    var search: FeedSearch?
    /// The mouse gesture in progress on the feed, if any.
    var gesture: FeedGesture?
    /// The first comment not read when the thread was opened (the "new" divider sits above it).
    var firstUnread: Int?
    /// The newest comment read through: every one up to it was on screen (or is the reader's
    /// own). What the read marker saves (`FeedModel+ReadMarker`).
    var lastSeen: Int?
    /// Comments after `lastSeen` that were on screen, not yet joined to it by those between.
    var seenAhead = IndexSet()
    /// The thread was read up to its newest comment when opened, and comments written before
    /// the opening are still coming (a room caught up from its offline copy): the first of
    /// them is the first unread.
    var awaitsUnread = false
    /// The read marker's comment when it is older than every comment loaded (`lastSeen` is -1
    /// then): found as older pages come, the read point waits for it.
    var markerAboveLoaded: String?
    /// The source found that marker above every comment of the older page it reports next.
    var markerAboveNextPage = false
    /// Comments that arrived while the feed was not at the bottom.
    private(set) var newCount = 0
    /// Which links were seen whole, and for how long.
    private(set) var linkVisibility = LinkVisibility()
    /// The feed's top comment in the last frame shown and the viewport row its first row was on.
    private var lastFrame: (comment: Int, start: Int, feed: CellRect)?

    init(comments: ThreadComments, me: String, rect: CellRect, columns: Int, snapMode: SnapMode, clock: AppClock) {
        self.comments = comments
        self.me = me
        self.rect = rect
        self.columns = columns
        self.clock = clock
        layoutCache = FeedLayout(width: columns)
        let header = ThreadHeaderLayout(thread: comments.thread, width: columns, handles: comments.handleID)
        headerCache = header
        scroll = FeedScroll(commentCount: comments.count, viewportRows: rect.height, columns: columns,
                            postRows: Self.postRows(header, feedHeight: rect.height), configuration: ScrollConfiguration(), now: clock.now)
        scroll.snapMode = snapMode
    }

    // MARK: Frames

    /// Brings the feed's motions and timers to the clock's time (before an event acts, and
    /// before a frame).
    func advance() {
        scroll.model.advance(to: now)
    }

    /// Brings the feed to the frame about to be drawn: size, time, heights on and near the screen.
    func prepare(rect newRect: CellRect, columns newColumns: Int) {
        rect = newRect
        if newColumns != columns {
            columns = newColumns
            layoutCache = FeedLayout(width: newColumns)
            scroll.invalidateAll()
        }
        let postRows = headerPostRows
        if rect.height != scroll.model.containerSize.rows || columns != scroll.model.containerSize.columns || postRows != scroll.postRows {
            scroll.setViewport(rows: rect.height, columns: columns, postRows: postRows)
        }
        scroll.model.advance(to: now)
        effects.removeFinished(at: now)
        scroll.prepare(rows: rowCount)
        if isFollowingBottom { newCount = 0 }
    }

    /// Takes what a shown frame drew (nil: the feed was covered): links seen whole, headers
    /// read, where the top comment was.
    func didPresent(_ shown: FeedView.Drawn?, at time: Date) {
        linkVisibility.update(visible: shown?.links ?? [], at: time)
        guard let shown else { return }
        // Read is what stood still on screen: comments flying past in a jump or a glide are not.
        if scroll.model.phase == .idle { markSeen(shown.commentsShown) }
        let top = anchor
        lastFrame = top.comment >= 0 && scroll.postRowsShown == 0 ? (top.comment, -top.row, rect) : nil
    }

    /// How far the content moved since the last frame shown, measured on a comment both frames
    /// show (heights measured or batches added above it move offsets, not content).
    var scrollSinceLastFrame: FrameScroll? {
        let model = scroll.model
        guard let last = lastFrame, last.feed == rect, scroll.postRowsShown == 0,
              let start = model.items.offset(of: last.comment) else { return nil }
        let shift = last.start - (start - model.geometry.drawnOffset)
        return shift == 0 ? nil : FrameScroll(rows: rect.row..<rect.maxRow, shift: shift)
    }

    /// The feed as drawn now, with relative times counted to `wallTime`.
    func view(at wallTime: Date) -> FeedView {
        FeedView(anchor: anchor, commentCount: comments.count, postRows: scroll.postRows, ownUserID: me, selected: selected,
                 now: wallTime, layout: layout, revealed: { self.revealedSpoilers[$0] ?? [] }, delivery: delivery,
                 effects: { [effects, now] in effects.effects(on: $0, at: now) }, time: now, palette: palette,
                 search: search.flatMap { $0.query.isEmpty ? nil : $0.pattern })
    }

    /// The scrollbar and the "N new" marker.
    var chrome: FeedChrome { FeedChrome(scroll: scroll, newCount: newCount) }

    /// The first row of something drawn over the feed's lower part (the mention list), if any:
    /// the scrollbar and the "N new" marker stay above it.
    var coveredFromRow: Int?

    /// The feed's rows below the header's expanded rows and above what covers its lower part:
    /// where the scrollbar and marker go.
    var chromeRect: CellRect {
        let covered = min(rect.height, scroll.postRowsShown)
        let bottom = min(rect.maxRow, max(rect.row + covered, coveredFromRow ?? rect.maxRow))
        return CellRect(column: rect.column, row: rect.row + covered, width: rect.width, height: bottom - rect.row - covered)
    }

    // MARK: Layout

    /// Body bytes laid out so far at this width: the work the layouts cost (tests count it).
    var bytesLaidOut: Int { layoutCache.bytesLaidOut }

    /// The comment at a feed position as the feed shows it.
    func layout(_ index: Int) -> CommentLayout {
        layoutCache.layout(of: index, layoutSource)
    }

    /// What a feed position holds, a row in place of what cannot be shown told apart.
    func item(at index: Int) -> FeedItem {
        let item = comments.item(at: index)
        if case .comment(let comment) = item, isPlaceholder(comment.id) { return .encrypted(comment) }
        return item
    }

    /// What the layouts read from the app.
    private var layoutSource: FeedLayout.Source {
        FeedLayout.Source(
            item: { self.item(at: $0) },
            user: { self.comments.user(id: $0) },
            handleID: { self.comments.handleID($0) },
            isExpanded: { self.expandedComments.contains($0) },
            shownBytes: { self.shownBodyBytes[$0] },
            startsUnread: { $0 == self.firstUnread },
            replyQuote: { self.replyQuote($0) },
            reactions: { self.reactions($0) },
            postSummary: { self.postSummary($0) },
            identityChanged: { self.identityChanged($0) },
            senderTrust: { self.senderTrust($0) })
    }

    /// Rows the comment at a feed position takes.
    func rowCount(_ index: Int) -> Int { layout(index).rowCount }

    /// The thread header's collapsing rows at the current width.
    var threadHeader: ThreadHeaderLayout {
        if let cached = headerCache, cached.width == columns { return cached }
        let header = ThreadHeaderLayout(thread: comments.thread, width: columns, handles: comments.handleID)
        headerCache = header
        return header
    }

    /// Rows the header collapses over: its collapsing rows, at most half the feed.
    private var headerPostRows: Int { Self.postRows(threadHeader, feedHeight: rect.height) }

    private static func postRows(_ header: ThreadHeaderLayout, feedHeight: Int) -> Int {
        min(header.postRows, max(1, feedHeight / 2))
    }

    /// Lays every comment out again before the next frame (users or the divider changed);
    /// `keepingShownParts` false when what parts were laid out with changed (`FeedLayout.invalidateAll`).
    func invalidateLayouts(keepingShownParts: Bool = true) {
        layoutCache.invalidateAll(keepingShownParts: keepingShownParts)
        headerCache = nil
        scroll.invalidateAll()
    }

    /// Lays one comment out again (it was expanded, collapsed or edited).
    func invalidate(_ index: Int) {
        layoutCache.invalidate(index)
        scroll.invalidate(index)
        scroll.prepare(rows: rowCount)
    }

    /// A comment's reactions changed: drawn anew under its text, which keeps its layout; a new
    /// reaction (`isNew`) flashes the row once (not with `--reduce-motion`).
    func reactionsChanged(of commentID: String, isNew: Bool = false) {
        guard let index = comments.index(ofComment: commentID) else { return }
        if isNew { effects.start(.reactionFlash, on: commentID, at: now) }
        layoutCache.reannotate(index, layoutSource)
        scroll.invalidateBelowText(index)
        scroll.prepare(rows: rowCount)
    }

    // MARK: Reading position

    /// The feed's place: the comment and row on its top row (`FeedScroll.postID` in the post's rows).
    var anchor: FeedAnchor { scroll.anchor }

    /// Whether the feed shows its newest row (and so follows new comments).
    var isFollowingBottom: Bool { scroll.model.isAtBottom }

    /// The comment the keys act on, counted among the comments as the header counts them (gap
    /// markers and lines that did not read are none), and how many there are: the selected
    /// comment, else the newest one shown (on the feed's last row), which Alt-Up would select;
    /// at the newest comment it reads `61/61`. 1 while only the post shows.
    var position: (index: Int, count: Int) {
        let count = comments.commentCount
        guard count > 0 else { return (0, count) }
        guard let current = selected ?? newestShown else { return (1, count) }
        return (min(max(1, comments.commentOrdinal(through: current)), count), count)
    }

    /// The position of the newest comment shown, nil while only the post shows. A key's or a
    /// jump's animation says where it goes at once, so the status bar changes once, not every
    /// frame (a glide counts as it goes).
    var newestShown: Int? {
        guard let bottom = scroll.bottomAnchor(resting: scroll.model.phase == .animating), bottom.comment >= 0 else { return nil }
        return bottom.comment
    }

    // MARK: Scrolling

    /// Stops a glide where it is drawn (a key or click during momentum).
    func stopMomentum() { scroll.model.stopMomentum(at: now) }

    /// Whether the feed glides by itself (momentum or a snap after a gesture).
    var isGliding: Bool { scroll.model.phase == .decelerating }

    /// Applies a scroll input at the feed's time.
    func handle(_ input: ScrollInput) {
        scroll.model.handle(input, at: now)
    }

    /// Scrolls to the thread's post, animated.
    func scrollToTop() {
        scroll.scrollToTop(at: now)
    }

    /// Scrolls to the newest comment, animated, and follows from there.
    func scrollToBottom() {
        newCount = 0
        scroll.scrollToBottom(at: now)
    }

    /// Scrolls to the first comment not read when the thread was opened.
    func scrollToFirstUnread() -> FeedEffect? {
        guard let first = firstUnread, first < comments.count else { return .message("no unread comments") }
        scroll.scrollTo(comment: first, animated: true, at: now)
        flashHeader(of: first)
        return nil
    }

    /// Flashes a comment's header once, so the eye finds where a jump went.
    func flashHeader(of index: Int) {
        guard let comment = comments.comment(at: index) else { return }
        effects.start(.headerFlash, on: comment.id, at: now)
    }

    /// The most comments arriving together that come in with a transition.
    static let arrivalsShownMoving = 3

    /// A comment from someone else arrived: while the feed follows the tail it comes in left to
    /// right, and glows a while if it mentions the reader.
    func showArrival(of comment: Comment, mentionsReader: Bool) {
        guard isFollowingBottom, scroll.model.phase == .idle else { return }
        effects.start(.arrival, on: comment.id, at: now)
        if mentionsReader { effects.start(.mentionGlow, on: comment.id, at: now) }
    }

    // MARK: The thread grows

    /// Comments were added after the newest: the feed follows at rest at the bottom, else counts them.
    func commentsAppended(_ count: Int, countAsNew: Bool) {
        guard count > 0 else { return }
        if countAsNew, !isFollowingBottom || scroll.model.phase != .idle { newCount += count }
        scroll.commentsAppended(count)
        searchCommentsArrived(count)
    }

    /// `count` comments were put in at `index`, above the reader's own still on their way:
    /// later positions move down; a feed at rest at the bottom stays there, else they count as new.
    func commentsInserted(_ count: Int, at index: Int, countAsNew: Bool) {
        guard count > 0 else { return }
        guard index + count < comments.count else { return commentsAppended(count, countAsNew: countAsNew) }
        let follows = isFollowingBottom && scroll.model.phase == .idle
        if countAsNew, !follows { newCount += count }
        commentsReplaced(at: index, removed: 0, inserted: count)
        if follows { scroll.followBottom(at: now) }
    }

    /// A comment of the reader's moved up from `from` to `to` (it landed in the thread before
    /// others of theirs still on their way); those between move down one.
    func commentMoved(from: Int, to: Int) {
        let follows = isFollowingBottom && scroll.model.phase == .idle
        commentsReplaced(at: to, removed: from - to + 1, inserted: from - to + 1)
        if follows { scroll.followBottom(at: now) }
    }

    /// The thread was read again from its start (its file was replaced or cut): positions name
    /// other comments now, so nothing stays selected, unread or matched, and the feed shows the
    /// newest comments at once.
    func threadReopened() {
        selected = nil
        firstUnread = nil
        lastSeen = nil
        seenAhead = IndexSet()
        awaitsUnread = false
        markerAboveLoaded = nil
        markerAboveNextPage = false
        newCount = 0
        lastFrame = nil
        gesture = nil
        searchPositionsMoved { _ in nil }
        layoutCache.invalidateAll()
        headerCache = nil
        scroll.replaceAll(commentCount: comments.count, at: now)
    }

    /// Older comments were loaded above the first: positions move, the reading position stays.
    func commentsPrepended(_ count: Int) {
        guard count > 0 else { return }
        selected = selected.map { $0 + count }
        readMarkerCommentsPrepended(count)
        lastFrame = nil
        searchPositionsMoved { $0 + count }
        layoutCache.invalidateAll()
        scroll.commentsPrepended(count, at: now)
    }

    /// `removed` positions from `index` were replaced by `inserted` (a gap filled): positions
    /// after them move, and what is on screen stays where it is.
    func commentsReplaced(at index: Int, removed: Int, inserted: Int) {
        let delta = inserted - removed
        func moved(_ position: Int) -> Int { position >= index + removed ? position + delta : min(position, index + max(0, inserted - 1)) }
        selected = selected.map(moved)
        firstUnread = firstUnread.map(moved)
        // What was read and is gone (a comment discarded) leaves the read point before it, never
        // on the next comment, which was not read.
        func kept(_ position: Int) -> Int? { position < index ? position : position >= index + removed ? position + delta : nil }
        lastSeen = lastSeen.map { kept($0) ?? index - 1 }
        seenAhead = IndexSet(seenAhead.compactMap(kept))
        lastFrame = nil
        searchPositionsMoved(moved)
        layoutCache.invalidateAll()
        scroll.commentsReplaced(at: index, removed: removed, inserted: inserted, at: now)
    }
}
