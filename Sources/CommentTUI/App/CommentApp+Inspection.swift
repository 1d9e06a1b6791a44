import ScrollEngine
import ThreadModel

/// What the screen's state is, in the app's words: read-only, for tests (through `Pilot`) and
/// tools, so they read behaviour without reaching into the feature models, which can then change.
extension CommentApp {
    // MARK: The draft

    /// The draft as text (what the composer shows).
    public var draft: String { composer.draft.string }
    /// The draft as the Markdown it would be sent as.
    public var draftMarkdown: String { composer.draft.markdown }
    /// The caret, as a count of characters before it in the draft.
    public var caretOffset: Int { composer.draft.cursorOffset }
    /// The whole draft: text, marks, mentions, caret and selection.
    public var draftDocument: ComposerDocument { composer.draft }
    /// Whether Enter would send the draft (it has visible text).
    public var hasTextToSend: Bool { composer.hasTextToSend }
    /// The body Enter would send, if any.
    public var bodyToSend: String? { composer.bodyToSend }
    /// Rows the composer grows to at most before it scrolls (a third of the screen).
    public var composerMaximumRows: Int { composer.maximumRows }

    // MARK: Where things are

    /// The feed's rectangle on screen now.
    public var feedRect: CellRect { regions.feed }
    /// The composer's rectangle on screen now (it grows with the draft).
    public var composerRect: CellRect { regions.composer }
    /// The row of the rule above the composer.
    public var composerRuleRow: Int { regions.composerRule }

    // MARK: The feed

    /// The selected comment's position in the thread, if one is selected.
    public var selectedCommentIndex: Int? { feed.selected }
    /// The selected comment's id, if one is selected and held.
    public var selectedCommentID: String? { feed.selected.flatMap { comment(at: $0)?.id } }
    /// The feed's scroll phase (idle, tracking, animating, decelerating, …).
    public var scrollPhase: ScrollPhase { feed.scroll.model.phase }
    /// The feed's scroll offset in rows of its content (fractional while it moves).
    public var scrollOffset: Double { feed.scroll.model.contentOffset }
    /// The feed's top row as a row of its content (0: the first row), as drawn.
    public var feedOffset: Int { feed.scroll.model.geometry.drawnOffset }
    /// The offset that shows the feed's last row at the bottom.
    public var feedBottomOffset: Int { Int(feed.scroll.model.offsetBounds.upperBound.rounded(.down)) }
    /// The feed's scroll velocity, rows a second (momentum after a fling).
    public var scrollVelocity: Double { feed.scroll.model.velocity }
    /// Whether the feed shows its bottom and follows new comments there.
    public var isFollowingBottom: Bool { feed.isFollowingBottom }
    /// How far the post's header has collapsed: 0 open, 1 shut.
    public var headerProgress: Double { feed.scroll.headerProgress }
    /// Rows the post's header collapses over.
    public var postRows: Int { feed.scroll.postRows }
    /// Rows of the post's header on screen now.
    public var postRowsShown: Int { feed.scroll.postRowsShown }
    /// Where the view is in the whole thread: 0 top, 1 bottom.
    public var threadFraction: Double { feed.scroll.threadFraction }
    /// Where the feed's scrollbar is on screen (the bar is the rectangle's last column).
    public var scrollbarRect: CellRect { feed.chromeRect }
    /// The scrollbar's thumb: its first row within the bar, and how many rows it takes.
    public var scrollbarThumb: (start: Int, length: Int) { feed.chrome.thumb(rows: feed.chromeRect.height) }
    /// The "N new" marker's N: comments arrived below the view since it left the bottom.
    public var newCommentsBelow: Int { feed.newCount }
    /// The status bar's `N/M`: the comment the keys act on (the selected one, else the newest
    /// shown), counted as the header counts comments, and how many there are.
    public var statusPosition: (index: Int, count: Int) { feed.position }
    /// The status bar's `N unread · Alt-U` while comments after the read marker wait, else nil.
    public var unreadStatus: String? { unreadNotice }
    /// Whether a walk to the post (Ctrl-Home through older pages) is under way.
    public var isWalkingToTop: Bool { seeksTop }
    /// The first comment not read when the thread was opened (the "new" divider), if any.
    public var firstUnreadIndex: Int? { feed.firstUnread }
    /// Whether a long comment is shown expanded.
    public func isExpanded(commentID: String) -> Bool { feed.expandedComments.contains(commentID) }
    /// Body bytes shown of a huge comment the reader asked to see more of, if they did.
    public func shownBodyBytes(commentID: String) -> Int? { feed.shownBodyBytes[commentID] }

    // MARK: The mention list

    /// Whether the @mention list is open.
    public var isMentionListOpen: Bool { mentions.picker != nil }
    /// The handles the open mention list offers, best first; nil when it is closed.
    public var mentionNames: [String]? { mentions.picker?.results.matches.map(\.user.handle) }
    /// What the open mention list ranks, and how many match; nil when it is closed.
    public var mentionResults: MentionResults? { mentions.picker?.results }
    /// The typed name the open mention list ranks; nil when it is closed.
    public var mentionQuery: String? { mentions.picker?.query }
    /// The user Tab or Enter would insert from the open list.
    public var highlightedMention: User? { mentions.picker?.highlightedUser }

    // MARK: The Ctrl-S search

    /// Whether the Ctrl-S search is open.
    public var isSearchOpen: Bool { feed.search != nil }
    /// The query typed into the open search; nil when it is closed.
    public var searchQuery: String? { feed.search?.query }
    /// The comment that matches now, if the search is open and found one.
    public var searchMatch: Int? { feed.search?.match }
    /// How many comments the search found so far; nil when it is closed.
    public var searchMatchCount: Int? { feed.search?.matches.count }
    /// Whether the search's scan still reads the thread.
    public var isSearchScanning: Bool { feed.isSearching }
    /// Comments the current scan has read; nil with no search or no scan.
    public var searchScanned: Int? { feed.search?.scan?.done }

    // MARK: The reader's comments on their way

    /// The reader's comments not confirmed yet, by id: sending, or failed with a reason.
    public var unconfirmedComments: [String: CommentDelivery] { deliveries }
    /// How many of the reader's comments are on their way, not confirmed yet.
    public var sendingCount: Int { deliveries.values.filter { $0 == .sending }.count }
    /// How many of the reader's comments were not sent (refused, given up on, held).
    public var failedCount: Int { deliveries.count - sendingCount }

    // MARK: Overlays

    /// F1: whether the key page covers the screen.
    public var showsHelp: Bool { overlays.showsHelp }
    /// F3: whether the scroll events show over the feed.
    public var showsScrollEvents: Bool { overlays.showsScrollEvents }
    /// Whether the status bar's message reports an error.
    public var messageIsError: Bool { overlays.messageIsError }
    /// F3's log of the feed's scroll events, oldest first.
    public var scrollEventLines: [String] { scrollEvents.lines }

    // MARK: The thread

    /// The comment at a position, if it is held and readable.
    public func comment(at index: Int) -> Comment? { comments.comment(at: index) }
    /// Whether the position holds a gap's marker (comments not loaded between two pages).
    public func isGap(at index: Int) -> Bool { comments.isGap(at: index) }
    /// Comments proper: gaps' markers and unreadable rows left out.
    public var readableCommentCount: Int { comments.commentCount }
    /// Whether older comments can still be loaded.
    public var hasOlderComments: Bool { comments.hasOlder }
    /// A comment's position, looked for among the newest `limit`.
    public func index(ofComment id: String, limit: Int = 5000) -> Int? { comments.index(ofComment: id, limit: limit) }
    /// The thread's users.
    public var threadUsers: [User] { comments.thread.users }
    /// A user of the thread, by id.
    public func user(id: String) -> User? { comments.thread.user(id: id) }
}
