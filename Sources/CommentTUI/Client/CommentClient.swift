import Foundation
import ScrollEngine
import ThreadModel

/// The running client: home and the threads opened from it, one of them on screen.
///
/// Each open thread is a `CommentApp` of its own (its comments, feed, composer, mention list,
/// deliveries and read marker), kept while the client runs: switching away and back neither
/// fetches nor moves anything. The client routes input to what is on screen, takes every open
/// thread's updates as they come (a thread off screen stays current), and carries out what home
/// and the switcher ask for. A turn of the loop is the same as a thread's: `advance(to:)`,
/// `update(_:at:)` per event, `render()`, `didPresent(_:)`.
public final class CommentClient {
    /// What is on screen.
    public enum Place: Equatable, Sendable {
        case home
        case thread(ThreadKey)
    }

    /// What every thread session is made with (the command line's and the terminal's settings).
    public struct SessionSettings {
        public var snapMode: SnapMode = .projected
        public var reduceMotion = false
        public var colorCount = 256
        public var allowsCrashTest = false
        public var openLink: ((String) -> Bool)?
        /// Which arrivals raise a desktop notification; nil: none (`--no-notify`).
        public var notifications: DesktopNotifications?
        public init() {}
    }

    public internal(set) var place: Place
    /// The open threads, by key.
    public internal(set) var sessions: [ThreadKey: CommentApp] = [:]
    /// The order threads were opened in: the first is the one the client started on.
    public internal(set) var openOrder: [ThreadKey] = []
    var settings: SessionSettings
    /// Opens threads asked for from home; nil in a client of one thread (no home).
    let opener: ThreadOpener?
    /// What background work (accounts, home's file rows) tells the client; nil without home.
    let mailbox: ClientMailbox?
    /// The logged-in accounts, by user id.
    let accounts: [String: AccountLink]
    /// Each account's connection, for home's status bar.
    var connections: [String: ConnectionState] = [:]
    /// Rooms each account has that home does not list yet, while its first window is shown.
    var roomsComing: [String: Int] = [:]
    /// Home: every thread the person has; nil in a client of one thread.
    let home: HomeList?
    /// The Ctrl-K switcher, while it is open.
    var switcher: ThreadSwitcher?
    /// The verification panel over any screen, while one is shown, and the verifications whose
    /// end the reader has seen (never shown again).
    var verification: ShownVerification?
    var closedVerifications: Set<String> = []
    /// Requests the status bar announced instead of opening the panel over a draft.
    var verificationNotices: Set<String> = []
    /// F1's key page over home, while it is open.
    var homePage: Pager?
    /// The terminal's focus, as its last report said (true until one comes).
    var focusedTerminal = true
    /// Notifications of rooms not open here (their counts changed), and one raised for the next frame.
    var roomNotifications: DesktopNotifications?
    var pendingRoomNotification: [UInt8] = []
    var pendingRoomBell = false
    /// Rooms left here: an opening that ends after is closed, never shown.
    var leftRooms: Set<ThreadKey> = []
    /// What home knows of each thread, by key (the accounts' rooms, remembered files, the demo).
    var summaries: [ThreadKey: ThreadSummary] = [:]
    /// The summaries home was last given: a wake that changed none re-sorts nothing.
    var summariesShown: [ThreadKey: ThreadSummary] = [:]
    /// The thread asked for last that is still opening: shown as soon as it opens.
    var awaited: ThreadKey?
    /// Whether a post has comments queued in its outbox (nil: never asked), and the posts
    /// opened for them this run (`openPostsWithQueuedComments`).
    var postHasQueuedComments: ((ThreadKey) -> Bool)?
    var queuedPostsOpened: Set<ThreadKey> = []
    /// A message for the status bar at home (an opening that failed, an invite declined).
    var homeMessage: (text: String, isError: Bool)?
    private(set) var size: (columns: Int, rows: Int)
    /// The clock home and the switcher read; each thread moves its own with the same times.
    let clock = AppClock()
    /// The next frame shows another screen than the last (a switch): it carries no scroll hint,
    /// which would move the last screen's rows.
    public internal(set) var switchedSinceLastFrame = false
    /// The wall-clock time, given to the thread on screen (relative times, stamps).
    public var wallTime = Date(timeIntervalSince1970: 0) {
        didSet { current?.wallTime = wallTime }
    }

    /// A client of one thread, with no home: what `AppLoop(app:)` runs.
    public init(thread app: CommentApp, key: ThreadKey = .demo) {
        place = .thread(key)
        sessions[key] = app
        openOrder = [key]
        settings = SessionSettings()
        opener = nil
        mailbox = nil
        accounts = [:]
        home = nil
        size = app.size
    }

    /// A client with home, showing `start` (home when nil).
    /// - Parameter opens: opens a thread home asks for (blocking; run off the loop's thread).
    init(columns: Int, rows: Int, settings: SessionSettings, start: OpenCommand.Target?, startKey: ThreadKey?,
         summaries: [ThreadSummary], opener: ThreadOpener, mailbox: ClientMailbox, accounts: [String: AccountLink] = [:]) {
        self.settings = settings
        self.opener = opener
        self.mailbox = mailbox
        self.accounts = accounts
        roomNotifications = settings.notifications
        size = (columns, rows)
        home = HomeList(clock: clock)
        place = .home
        for summary in summaries { self.summaries[summary.key] = summary }
        if let start, let startKey {
            adopt(start, as: startKey)
            place = .thread(startKey)
            markOnScreen()
        }
        refreshHome()
    }

    /// The thread on screen, if a thread is.
    public var current: CommentApp? {
        guard case .thread(let key) = place else { return nil }
        return sessions[key]
    }

    // MARK: A turn of the loop

    /// Moves the clock (home's, and the thread on screen's) to `time`.
    public func advance(to time: ScrollInstant) {
        clock.move(to: time)
        home?.advance()
        current?.advance(to: time)
    }

    /// Applies one input event at `time`; returns what the loop must do.
    public func update(_ event: InputEvent, at time: ScrollInstant? = nil) -> [AppCommand] {
        if let time { clock.move(to: time) }
        if case .focus(let focused) = event { return focusChanged(focused) }
        if let handled = handleVerificationInput(event) { return handled }
        if home != nil, let handled = handleClientInput(event) { return handled }
        switch place {
        case .home:
            return updateHome(event)
        case .thread:
            return current?.update(event, at: time) ?? []
        }
    }

    /// The descriptors the loop polls beside the terminal: each open thread's updates and
    /// mention index, the opener's, the accounts'.
    public var updateDescriptors: [FileDescriptor] {
        var descriptors = openOrder.compactMap { sessions[$0]?.source.updatesReady }
        descriptors += openOrder.compactMap { sessions[$0]?.mentionIndexReady }
        if let opener { descriptors.append(opener.ready) }
        if let mailbox { descriptors.append(mailbox.ready) }
        return descriptors
    }

    /// Takes what the ready descriptors announce, at `time`.
    public func descriptorsReady(_ ready: [FileDescriptor], at time: ScrollInstant) {
        clock.move(to: time)
        for key in openOrder {
            guard let session = sessions[key] else { continue }
            if let descriptor = session.source.updatesReady, ready.contains(descriptor) { session.sourceIsReady(at: time) }
            if let descriptor = session.mentionIndexReady, ready.contains(descriptor) { session.mentionIndexLanded(at: time) }
        }
        if let opener, ready.contains(opener.ready) {
            for opened in opener.takeOpened() { finishOpening(opened) }
        }
        if let mailbox, ready.contains(mailbox.ready) {
            for message in mailbox.take() { receive(message) }
        }
        refreshHome()
    }

    /// Draws what is on screen.
    public func render() -> Frame {
        var frame = current?.render() ?? renderHome()
        if switchedSinceLastFrame { frame.scroll = nil }
        addNotifications(to: &frame)
        if current != nil, let switcher { drawSwitcher(switcher, into: &frame) }
        if verification != nil { drawVerification(into: &frame) }
        return frame
    }

    /// Takes a shown frame's report (the thread on screen reads its headers).
    public func didPresent(_ frame: Frame) {
        switchedSinceLastFrame = false
        current?.didPresent(frame)
    }

    /// Adapts to a new terminal size.
    public func resize(columns: Int, rows: Int) {
        size = (columns, rows)
        current?.resize(columns: columns, rows: rows)
    }

    /// When the client next needs a frame without input.
    public var nextDeadline: ScrollInstant? {
        switch place {
        case .home: home?.nextDeadline
        case .thread: current?.nextDeadline
        }
    }

    /// Lays every open thread's text out again (the terminal draws more clusters whole).
    public func clusterWidthsChanged() {
        for session in sessions.values { session.clusterWidthsChanged() }
    }

    /// Saves what must not wait for a timer in every open thread (drafts); each draft that could
    /// not be saved, as Markdown, with its thread and why.
    @discardableResult
    public func prepareToExit() -> [(thread: String, error: Error, markdown: String)] {
        openOrder.compactMap { key in
            sessions[key].flatMap { session in session.prepareToExit().map { (session.source.label, $0.error, $0.markdown) } }
        }
    }

    /// Takes the editor's text into the thread on screen's draft.
    public func finishExternalEdit(_ result: Result<String, Error>, at time: ScrollInstant) {
        current?.finishExternalEdit(result, at: time)
    }

    /// The open threads, in the order they were opened.
    public var openSessions: [CommentApp] { openOrder.compactMap { sessions[$0] } }

    /// Stops what the client runs besides its threads (the accounts' syncs), at exit.
    public func close() {
        for link in accounts.values { link.close() }
    }

    /// Makes a session of an opened thread and keeps it.
    func adopt(_ target: OpenCommand.Target, as key: ThreadKey) {
        let app = CommentApp(source: target.source, me: target.me, columns: size.columns, rows: size.rows,
                             snapMode: settings.snapMode)
        app.reduceMotion = settings.reduceMotion
        app.colorCount = settings.colorCount
        app.allowsCrashTest = settings.allowsCrashTest
        app.openLink = settings.openLink
        app.wallTime = wallTime
        if key == .demo { app.demoCompanion = DemoCompanion(thread: target.thread) }
        app.notifications = settings.notifications
        app.notificationThread = notificationThread(of: key)
        app.isOnScreen = false
        if !terminalFocused { app.terminalFocusChanged(false) }
        sessions[key] = app
        openOrder.append(key)
    }
}
