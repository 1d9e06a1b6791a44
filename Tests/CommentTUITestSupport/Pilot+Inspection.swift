import CommentTUI
import ScrollEngine
import ThreadModel

/// The thread on screen as `CommentApp`'s inspection reads it, under the same names:
/// `pilot.draft`, `pilot.scrollPhase`, `pilot.mentionNames`, … (see `CommentApp+Inspection`).
extension Pilot {
    // MARK: The draft

    /// The draft as text (what the composer shows).
    public var draft: String { app.draft }
    /// The draft as the Markdown it would be sent as.
    public var draftMarkdown: String { app.draftMarkdown }
    /// The caret, as a count of characters before it in the draft.
    public var caretOffset: Int { app.caretOffset }
    /// The whole draft: text, marks, mentions, caret and selection.
    public var draftDocument: ComposerDocument { app.draftDocument }
    /// Whether Enter would send the draft (it has visible text).
    public var hasTextToSend: Bool { app.hasTextToSend }
    /// The body Enter would send, if any.
    public var bodyToSend: String? { app.bodyToSend }
    /// Rows the composer grows to at most before it scrolls (a third of the screen).
    public var composerMaximumRows: Int { app.composerMaximumRows }

    // MARK: Where things are

    /// The feed's rectangle on screen now.
    public var feedRect: CellRect { app.feedRect }
    /// The composer's rectangle on screen now (it grows with the draft).
    public var composerRect: CellRect { app.composerRect }
    /// The row of the rule above the composer.
    public var composerRuleRow: Int { app.composerRuleRow }

    // MARK: The feed

    /// The selected comment's position in the thread, if one is selected.
    public var selectedCommentIndex: Int? { app.selectedCommentIndex }
    /// The selected comment's id, if one is selected and held.
    public var selectedCommentID: String? { app.selectedCommentID }
    /// The feed's scroll phase (idle, tracking, animating, decelerating, …).
    public var scrollPhase: ScrollPhase { app.scrollPhase }
    /// The feed's scroll offset in rows of its content (fractional while it moves).
    public var scrollOffset: Double { app.scrollOffset }
    /// The feed's top row as a row of its content (0: the first row), as drawn.
    public var feedOffset: Int { app.feedOffset }
    /// The offset that shows the feed's last row at the bottom.
    public var feedBottomOffset: Int { app.feedBottomOffset }
    /// The feed's scroll velocity, rows a second (momentum after a fling).
    public var scrollVelocity: Double { app.scrollVelocity }
    /// Whether the feed shows its bottom and follows new comments there.
    public var isFollowingBottom: Bool { app.isFollowingBottom }
    /// How far the post's header has collapsed: 0 open, 1 shut.
    public var headerProgress: Double { app.headerProgress }
    /// Rows the post's header collapses over.
    public var postRows: Int { app.postRows }
    /// Rows of the post's header on screen now.
    public var postRowsShown: Int { app.postRowsShown }
    /// Where the view is in the whole thread: 0 top, 1 bottom.
    public var threadFraction: Double { app.threadFraction }
    /// Where the feed's scrollbar is on screen (the bar is the rectangle's last column).
    public var scrollbarRect: CellRect { app.scrollbarRect }
    /// The scrollbar's thumb: its first row within the bar, and how many rows it takes.
    public var scrollbarThumb: (start: Int, length: Int) { app.scrollbarThumb }
    /// The "N new" marker's N: comments arrived below the view since it left the bottom.
    public var newCommentsBelow: Int { app.newCommentsBelow }
    /// The status bar's `N/M`: the comment the keys act on (the selected one, else the newest
    /// shown), counted as the header counts comments, and how many there are.
    public var statusPosition: (index: Int, count: Int) { app.statusPosition }
    /// The status bar's `N unread · Alt-U` while comments after the read marker wait, else nil.
    public var unreadStatus: String? { app.unreadStatus }
    /// Whether a walk to the post (Ctrl-Home through older pages) is under way.
    public var isWalkingToTop: Bool { app.isWalkingToTop }
    /// The first comment not read when the thread was opened (the "new" divider), if any.
    public var firstUnreadIndex: Int? { app.firstUnreadIndex }
    /// Whether a long comment is shown expanded.
    public func isExpanded(commentID: String) -> Bool { app.isExpanded(commentID: commentID) }
    /// Body bytes shown of a huge comment the reader asked to see more of, if they did.
    public func shownBodyBytes(commentID: String) -> Int? { app.shownBodyBytes(commentID: commentID) }

    // MARK: The mention list

    /// Whether the @mention list is open.
    public var isMentionListOpen: Bool { app.isMentionListOpen }
    /// The handles the open mention list offers, best first; nil when it is closed.
    public var mentionNames: [String]? { app.mentionNames }
    /// What the open mention list ranks, and how many match; nil when it is closed.
    public var mentionResults: MentionResults? { app.mentionResults }
    /// The typed name the open mention list ranks; nil when it is closed.
    public var mentionQuery: String? { app.mentionQuery }
    /// The user Tab or Enter would insert from the open list.
    public var highlightedMention: User? { app.highlightedMention }

    // MARK: The Ctrl-S search

    /// Whether the Ctrl-S search is open.
    public var isSearchOpen: Bool { app.isSearchOpen }
    /// The query typed into the open search; nil when it is closed.
    public var searchQuery: String? { app.searchQuery }
    /// The comment that matches now, if the search is open and found one.
    public var searchMatch: Int? { app.searchMatch }
    /// How many comments the search found so far; nil when it is closed.
    public var searchMatchCount: Int? { app.searchMatchCount }
    /// Whether the search's scan still reads the thread.
    public var isSearchScanning: Bool { app.isSearchScanning }
    /// Comments the current scan has read; nil with no search or no scan.
    public var searchScanned: Int? { app.searchScanned }

    // MARK: The reader's comments on their way

    /// The reader's comments not confirmed yet, by id: sending, or failed with a reason.
    public var unconfirmedComments: [String: CommentDelivery] { app.unconfirmedComments }
    /// How many of the reader's comments are on their way, not confirmed yet.
    public var sendingCount: Int { app.sendingCount }
    /// How many of the reader's comments were not sent (refused, given up on, held).
    public var failedCount: Int { app.failedCount }

    // MARK: Overlays

    /// F1: whether the key page covers the screen.
    public var showsHelp: Bool { app.showsHelp }
    /// F3: whether the scroll events show over the feed.
    public var showsScrollEvents: Bool { app.showsScrollEvents }
    /// Whether the status bar's message reports an error.
    public var messageIsError: Bool { app.messageIsError }
    /// F3's log of the feed's scroll events, oldest first.
    public var scrollEventLines: [String] { app.scrollEventLines }

    // MARK: The thread

    /// The comment at a position, if it is held and readable.
    public func comment(at index: Int) -> Comment? { app.comment(at: index) }
    /// Whether the position holds a gap's marker (comments not loaded between two pages).
    public func isGap(at index: Int) -> Bool { app.isGap(at: index) }
    /// Comments proper: gaps' markers and unreadable rows left out.
    public var readableCommentCount: Int { app.readableCommentCount }
    /// Whether older comments can still be loaded.
    public var hasOlderComments: Bool { app.hasOlderComments }
    /// A comment's position, looked for among the newest `limit`.
    public func index(ofComment id: String, limit: Int = 5000) -> Int? { app.index(ofComment: id, limit: limit) }
    /// The thread's users.
    public var threadUsers: [User] { app.threadUsers }
    /// A user of the thread, by id.
    public func user(id: String) -> User? { app.user(id: id) }
    /// How many comments are known now (older pages included).
    public var commentCount: Int { app.commentCount }
    /// The comment and row on the feed's top row (comment -1: the post's rows).
    public var feedTop: (comment: Int, row: Int) { app.feedTop }
    /// The thread's title.
    public var title: String { app.currentTitle }
    /// The status bar's message, if any.
    public var message: String? { app.message }
}
