import Foundation
import ScrollEngine
import ThreadModel

/// The client, free of any terminal: events in, frames out.
///
/// A small coordinator over feature models that own their state: the thread's comments, the
/// feed, the composer, the mention list and the overlays. Keys go through the `KeyMap`; what one
/// feature asks of another comes back as a return value and is carried out here. A turn of the
/// loop is `advance(to:)`, `update(_:)` for each event, `render()`, then `didPresent(_:)`.
public final class CommentApp {
    /// Where the thread lives.
    public let source: ThreadSource
    /// The user who writes.
    public internal(set) var me: User
    let comments: ThreadComments
    let feed: FeedModel
    let composer: ComposerModel
    let mentions: MentionList
    var overlays = Overlays()
    /// Scroll observer events for the F3 panel.
    let scrollEvents = ScrollEventLog()
    /// Our comments not in the thread yet (sending, or failed and kept for a retry), by id.
    var deliveries: [String: CommentDelivery] = [:]
    /// The reactions to comments, by comment id, as the source last reported them.
    var reactions: [String: [ReactionCount]] = [:]
    /// The summaries of the posts comments are the roots of, by comment id, as last reported.
    var postSummaries: [String: PostSummary] = [:]
    /// The reaction picker while it is open (Alt-K), and the keys the reader reacted with last.
    var reactionPicker: ReactionPicker?
    var recentReactions: [String] = []
    /// A first Alt-X with no comment not sent selected: the one it would discard, and when.
    var discardAsked: (id: String, at: ScrollInstant)?
    /// The comment the draft answers (Alt-R), until it is sent.
    var replyingTo: String?
    /// The reader's comment the composer edits (Alt-C), and the draft set aside meanwhile.
    var editing: OwnCommentEdit?
    /// Alt-W asked whether to delete this comment of the reader's: the next key answers.
    var deleteAsked: Comment?
    /// Our edits and deletions shown already, until the source's echo of each passes.
    var sentChanges: Set<CommentChange> = []
    /// How the source is connected, when it is on a server.
    var connection: ConnectionState?
    /// Others typing now, by user id (from the source).
    var typingUsers: [String] = []
    /// Why the thread takes no comments (an encrypted room), from the source: the empty
    /// composer says it, the header marks the room.
    var sendingHeld: String?
    /// The read marker the source was last told of (or opened with).
    var markerTold: ReadMarker?
    /// Older comments were asked of the source and have not come yet.
    var isLoadingOlder = false
    /// Ctrl-Home was pressed with history still on the server: each older page that arrives
    /// while the feed is still at its top scrolls on, until the post.
    var seeksTop = false
    /// Comments replies answer, by id, once found among the loaded ones or fetched by the source.
    var replyTargets: [String: ReplyTarget] = [:]
    /// Targets asked of the source (each once, again after it could not be reached).
    var askedReplyTargets: Set<String> = []
    /// The target Alt-J (or a click on a quote) waits for in older pages, while it does.
    var seeksReplied: String?
    /// Older pages loaded so far looking for `seeksReplied` (bounded by `replyTargetPages`).
    var replyPagesLoaded = 0
    /// The comment a link named, looked for in older pages while they load (`+LinkedComment`),
    /// and how many were loaded so far.
    var seeksLinked: String?
    var linkedPagesLoaded = 0
    /// The search waits for the source's catch-up (a room opened from its offline copy): the
    /// linked comment may be newer than the copy, so no older page is asked for until `.caughtUp`.
    var linkedAwaitsCatchUp = false
    /// The editor's file kept because the draft did not take what it holds (shown escaped): the
    /// launcher names it on the terminal at exit.
    public internal(set) var keptEditorFile: String?
    /// How close to the oldest known comment the feed comes before the page before it is asked for.
    static let olderPageMargin = FeedScroll.edgeMargin
    private(set) var size: (columns: Int, rows: Int)
    /// The monotonic clock every feature reads: events and frames move it before anything acts.
    let clock = AppClock()
    /// The monotonic time: scroll inputs carry it, frames advance the engines to it.
    public var now: ScrollInstant { clock.now }
    /// The wall-clock time: relative times count to it, link visibility is timed by it, sent
    /// comments are stamped with it. The loop sets it each turn; tests set it themselves.
    public var wallTime = Date(timeIntervalSince1970: 0)
    /// Opens a link in a browser; false when none could. Nil shows the URL instead.
    public var openLink: ((String) -> Bool)?
    /// Text effects show their end state at once (`--reduce-motion`).
    public var reduceMotion: Bool {
        get { feed.effects.reduceMotion }
        set { feed.effects.reduceMotion = newValue }
    }
    /// The colours the terminal has: fades are colour ramps with 256, attribute steps with fewer.
    public var colorCount: Int {
        get { feed.palette.colorCount }
        set { feed.palette.colorCount = newValue }
    }
    /// In the demo thread, someone who answers what the reader sends.
    public var demoCompanion: DemoCompanion?
    /// Makes F12 a deliberate fatal error, so tests can check the crash path end to end.
    public var allowsCrashTest = false
    /// Told of each comment of another's that arrives live (not a catch-up), and whether it calls
    /// for the reader: the client raises notifications from it.
    public var arrivalObserver: ((_ comment: Comment, _ callsForReader: Bool) -> Void)?
    /// Comments that called for the reader as they arrived, by id (home's mention badge).
    var mentionArrivals: [String] = []
    /// Which arriving comments raise a desktop notification, in which escape; nil: none do
    /// (`--no-notify`).
    public var notifications: DesktopNotifications?
    /// Which thread this is to a notification, and whether it may show its text.
    public var notificationThread = NotificationThread(key: .demo)
    /// Whether the terminal has the focus, as its last focus report said (true until one comes).
    public internal(set) var terminalFocused = true
    /// Whether this thread is the one on screen (the client's other open threads are not): a
    /// comment arriving off screen notifies though the terminal has the focus.
    public internal(set) var isOnScreen = true

    /// Opens `source`'s thread for `me` on a screen of this size, at the newest comments,
    /// with the saved read marker and draft.
    public init(source: ThreadSource, me: User, columns: Int, rows: Int, snapMode: SnapMode = .projected) {
        self.source = source
        self.me = me
        source.reacting?.readerIs(me.id)
        var thread = source.thread
        // Added only when missing or different: a big thread's users are not copied for nothing.
        if thread.user(id: me.id) != me { thread.add(me) }
        comments = ThreadComments(thread: thread, opened: source.openedComments, hasOlder: source.olderPages?.hasOlderComments ?? false)
        // Written in an earlier run and never confirmed: shown as on their way, in order.
        // Those refused for good before show so, with the reason; they wait for the reader.
        let notSent = source.notSentReasons
        for comment in source.unsentComments where !comments.containsAdded(id: comment.id) {
            comments.appendWaiting(comment)
            deliveries[comment.id] = notSent[comment.id].map { .failed(reason: SendFailure($0.kind, VisibleText.escape($0.message))) } ?? .sending
        }
        sendingHeld = source.sendingHeld
        size = (columns, rows)
        composer = ComposerModel(columns: columns, rows: rows, clock: clock)
        mentions = MentionList(me: me.id, clock: clock, comments: comments)
        let regions = ScreenRegions(columns: columns, rows: rows, composerRows: 1, composerMaximum: composer.maximumRows)
        feed = FeedModel(comments: comments, me: me.id, rect: regions.feed, columns: columns, snapMode: snapMode, clock: clock)
        scrollEvents.observe(feed.scroll.model)
        // Before the marker: it never rests on one of ours still on its way.
        feed.delivery = { [unowned self] in self.deliveries[$0] }
        feed.reactions = { [unowned self] in self.reactions[$0] ?? [] }
        feed.postSummary = { [unowned self] in self.postSummaries[$0] }
        // Said first: a problem with the file or the draft is more urgent and says itself over it.
        restoreReadMarker(source.loadReadMarker(), awaitsCatchUp: source.catchingUp?.isCatchingUp ?? false)
        // The reason said is the oldest's, as the keys act on it first.
        if let oldest = notSentTarget, case .failed(let reason) = deliveries[oldest.comment.id] {
            overlays.show(Self.notSentNotice(reason.message, count: notSent.count), error: true)
        }
        feed.replyQuote = { [unowned self] in self.replyQuote(for: $0) }
        feed.isPlaceholder = { [unowned self] in self.source.isPlaceholder($0) }
        feed.identityChanged = { [unowned self] in self.source.senderIdentityChanged($0) }
        feed.senderTrust = { [unowned self] in self.source.senderTrust($0) }
        reportOpeningProblems(source.openingProblems)
        if let draftFile = source.draftFile { keepDraft(in: draftFile) }
        prepare()
        showLinkedComment()
    }

    /// Restores the draft saved in `file` and saves it there from now on; says how that went.
    func keepDraft(in file: DraftFile) {
        // Comments added so far are those an outbox still holds; the rest are in the source.
        let report = composer.keep(in: file) { [comments, source] id in comments.containsAdded(id: id) || source.containsComment(id: id) }
        // A restored draft is said with the unread notice, not over it.
        if let report { overlays.show([report.text, unreadNotice].compactMap { $0 }.joined(separator: " · "), error: report.isError) }
    }

    // MARK: A turn of the loop

    /// Moves the app's clock to `time` (the loop's monotonic clock, or a test's) and everything
    /// that moves with it: the feed, the mention list, the draft's pending save.
    public func advance(to time: ScrollInstant) {
        moveClock(to: time)
        if let answers = demoCompanion?.answers(dueBy: now, to: me, now: wallTime), !answers.isEmpty {
            // Written to the thread like another writer's posts: they come back through the source.
            for answer in answers { _ = source.send(answer) }
        }
        // A slice of the search under way: each turn reads a bounded share, so keys never wait.
        apply(feed.continueSearch())
        prepare()
    }

    /// Moves the one clock, so every feature acts at `time` from here on, and brings what is
    /// timed to it: the feed's and the list's motions and timers, the draft's pending save.
    private func moveClock(to time: ScrollInstant) {
        clock.move(to: time)
        feed.advance()
        mentions.advance()
        if let error = composer.saveIfDue() { overlays.show("draft not saved (kept in memory): \(error)", error: true) }
    }

    /// Applies one input event, at `time` when given (the clock moves there first); returns what
    /// the loop must do.
    public func update(_ event: InputEvent, at time: ScrollInstant? = nil) -> [AppCommand] {
        if let time { moveClock(to: time) }
        let revision = composer.revision
        var edit: DraftEdit?
        var commands: [AppCommand] = []
        // Any key or paste stops a glide, as a touch does on a phone (clicks: `handleMouse`).
        if case .key = event { feed.stopMomentum() }
        if case .paste = event { feed.stopMomentum() }
        // Ctrl-Home's walk to the post ends with any other input: the reader took over. The
        // pointer only passing over (motion reported with F2) is no input.
        if case .key = event { stopWalks() }
        if case .mouse(let mouse) = event, mouse.action != .move { stopWalks() }
        switch event {
        // Alt-W's y/n takes the next input, whatever it is.
        case _ where answerDelete(event): break
        case .key(let press): (commands, edit) = handleKey(press)
        case .mouse(let mouse): handleMouse(mouse)
        case .paste(let text):
            // Nothing is typed under a page: a paste closes it, as any other key does. With the
            // reaction picker or search open their query takes it: the composer is hidden.
            if overlays.page != nil {
                overlays.closePage()
            } else if reactionPicker != nil {
                reactionPicker?.paste(text)
            } else if feed.search != nil {
                apply(feed.pasteIntoSearch(text))
            } else {
                composer.paste(text)
            }
        case .focus(let focused): terminalFocusChanged(focused)
        case .modeReport, .cursorReport, .deviceAttributes: break
        }
        mentions.follow(edit, draftChanged: composer.revision != revision, draft: composer.draft, feed: regions.feed)
        if composer.revision != revision { source.typingNotices?.readerIsTyping(composer.hasTextToSend) }
        prepare()
        return commands
    }

    /// Takes the updates the source has queued (the loop calls this when `source.updatesReady` is
    /// readable), at `time` when given (arrivals start their transitions then).
    public func sourceIsReady(at time: ScrollInstant? = nil) {
        if let time { advance(to: time) }
        receive(source.takeUpdates())
    }

    /// Adapts to a new terminal size.
    public func resize(columns: Int, rows: Int) {
        guard columns != size.columns || rows != size.rows else { return }
        size = (columns, rows)
        composer.resize(columns: columns, rows: rows)
        overlays.page?.resize(columns: columns, rows: rows)
        prepare()
    }

    /// Lays every text out again: the width of some clusters changed (the terminal's answers to
    /// the grapheme probe came, and it draws them whole).
    public func clusterWidthsChanged() {
        feed.invalidateLayouts(keepingShownParts: false)
        composer.forgetLayout()
        overlays.page?.layOutAgain()
        prepare()
    }

    /// Takes a shown frame's report: which links and headers the reader saw; the bell rang.
    public func didPresent(_ frame: Frame) {
        mentions.threadShown()
        feed.didPresent(frame.feedShown, at: wallTime)
        // The notice of unread comments goes once the reader is up at the first of them (Alt-U
        // or scrolling): from there on the divider and the feed say it.
        if let message = overlays.message, message.hasSuffix(Self.unreadSuffix),
           let first = feed.firstUnread, frame.feedShown != nil, feed.anchor.comment <= first {
            overlays.clearMessage()
        }
        overlays.bellRang()
        overlays.notificationSent()
        // Against what the source was last told, not the frame before: the marker also moves
        // between frames (comments put in above ours still on their way, a catch-up's end).
        if let moved = feed.readMarker, moved.commentID != markerTold?.commentID {
            markerTold = moved
            source.readReceipts?.readMarkerMoved(moved)
        }
    }

    /// When the app next needs a frame without input: now while something moves or a search
    /// scans, else its next timer (a wheel burst's end, the debounced end, a pending draft save,
    /// an effect's next step), else nil.
    public var nextDeadline: ScrollInstant? {
        [feed.scroll.model.nextDeadline, mentions.picker?.model.nextDeadline, composer.saveDue, feed.effects.nextChange(after: now),
         demoCompanion?.nextDeadline, feed.isSearching ? now : nil].compactMap { $0 }.min()
    }

    /// Work that must not wait for a timer when the client stops (or is suspended, or hands the
    /// terminal to an editor): the draft's pending save. Returns the draft as Markdown when it
    /// could not be saved, so the caller can still put it somewhere.
    @discardableResult
    public func prepareToExit() -> (error: Error, markdown: String)? {
        guard let error = composer.saveIfDue(force: true) else { return nil }
        overlays.show("draft not saved (kept in memory): \(error)", error: true)
        return (error, composer.draft.markdown)
    }

    /// Takes the editor's text back as the draft (Ctrl-X Ctrl-E), or says why it did not come.
    public func finishExternalEdit(_ result: Result<String, Error>, at time: ScrollInstant) {
        moveClock(to: time)
        switch result {
        case .success(let text):
            composer.replaceAll(withEdited: text, handles: comments.handleID)
            overlays.show("draft edited in the editor")
        case .failure(let error):
            overlays.show("draft unchanged: \(error)", error: true)
            // Said again at exit: a signal that ended the editor ends the client before this shows.
            if let kept = (error as? ExternalEditor.Failure)?.keptFile { keptEditorFile = kept }
        }
        prepare()
    }

    // MARK: What the loop and the launcher read

    /// How many comments are known now (older pages included).
    public var commentCount: Int { comments.count }

    /// The comment and row on the feed's top row (comment -1: the post's rows).
    public var feedTop: (comment: Int, row: Int) { (feed.anchor.comment, feed.anchor.row) }

    /// Comments held in memory now (the rest are read again when needed).
    public var commentsHeld: Int { comments.countInMemory }
    /// The status bar's message, if any.
    public var message: String? { overlays.message }
    /// The Ctrl-S search, if one is open: its match and whether a scan is still under way.
    public var searchState: (match: Int?, isScanning: Bool)? { feed.search.map { ($0.match, $0.isScanning) } }
    /// Which links were seen whole, and for how long.
    public var linkVisibility: LinkVisibility { feed.linkVisibility }
    /// The read marker to save: the newest comment seen, if any was.
    public var readMarker: ReadMarker? { feed.readMarker }

    /// Sets the first unread comment from a saved marker, if it still names the same comment.
    public func restore(_ marker: ReadMarker?) {
        restoreReadMarker(marker)
        prepare()
    }

    private func restoreReadMarker(_ marker: ReadMarker?, awaitsCatchUp: Bool = false) {
        feed.restore(marker, awaitsCatchUp: awaitsCatchUp)
        markerTold = feed.readMarker
        // Said at once, so the reader need not know Alt-U to find where they left off.
        if let unreadNotice { overlays.show(unreadNotice) }
    }

    private static let unreadSuffix = " unread · Alt-U"

    /// `N unread · Alt-U` while comments after the read marker wait, nil otherwise.
    var unreadNotice: String? {
        guard let first = feed.firstUnread, first < comments.count else { return nil }
        // A marker older than the loaded comments: more are unread on the server.
        let more = feed.markerAboveLoaded != nil && comments.hasOlder ? "+" : ""
        return "\(comments.count - first)" + more + Self.unreadSuffix
    }

    // MARK: Layout

    /// The screen's regions now (the composer grows with the draft).
    var regions: ScreenRegions {
        let rows = ComposerView(window: composer.window(handles: comments.handleID)).height
        return ScreenRegions(columns: size.columns, rows: size.rows, composerRows: rows, composerMaximum: composer.maximumRows)
    }

    var isTooSmall: Bool {
        size.columns < NoticeView.minimumSize.columns || size.rows < NoticeView.minimumSize.rows
    }

    /// Brings the feed and the list to the current size and time, so a frame can be drawn and
    /// positions read without drawing one.
    func prepare() {
        guard !isTooSmall else { return }
        let feedRect = regions.feed
        feed.prepare(rect: feedRect, columns: size.columns)
        mentions.picker?.relayout(feed: feedRect, now: now)
        feed.coveredFromRow = mentions.picker.map { $0.frame.row + $0.visibleInsetRows }
        if comments.hasOlder, !isLoadingOlder, let olderPages = source.olderPages, feed.anchor.comment < Self.olderPageMargin {
            isLoadingOlder = true
            olderPages.loadOlderComments()
        }
        // A gap is filled as it comes near the view, like the older pages above the first comment.
        if let gap = comments.gapToFill(near: feed.anchor.comment, margin: Self.olderPageMargin) {
            feed.invalidate(gap.index)
            source.gapFilling?.fillGap(gap.id)
        }
    }

    /// Carries out what the feed asked for.
    func apply(_ effect: FeedEffect?) {
        switch effect {
        case .message(let text, let isError)?: overlays.show(text, error: isError)
        case .open(let url)?: open(url)
        case .readPost?: openPostReader()
        case .jumpToReplied(let id)?: jumpToReplied(id)
        case nil: break
        }
    }

    /// Opens a link in the browser, or shows it when there is none; a host that could pass
    /// for another is named in punycode, with a warning.
    private func open(_ url: String) {
        let display = LinkHost.display(of: url)
        let spoofable = display?.isPunycodeForSafety == true
        // The warning first: a narrow status bar cuts the end of a message.
        let warning = spoofable ? "punycode host (look-alike letters) · " : ""
        let shown = display?.url ?? url
        if let openLink, openLink(url) {
            overlays.show("\(warning)opened \(shown)", error: spoofable)
        } else {
            overlays.show("\(warning)link: \(shown)", error: spoofable)
        }
    }
}
