/// What sits over the screen or beside it: a page (F1's keys, the post), the F2 and F3
/// inspectors, the status bar's message, the bell and notifications, and where the pointer was last seen.
struct Overlays {
    /// The page that covers the screen, if one does: F1's keys or the post (see `Pager`).
    var page: Pager?
    /// F2: the screen shaded by which layer receives a click.
    private(set) var showsHitTest = false
    /// F3: the scroll observer's events over the feed.
    private(set) var showsScrollEvents = false
    /// The status bar's message, and whether it reports an error.
    private(set) var message: String?
    private(set) var messageIsError = false
    /// A comment mentioning the reader arrived: the next frame rings the bell.
    private(set) var bellPending = false
    /// A desktop notification's escape for the next frame to carry, if one was raised.
    private(set) var notificationPending: [UInt8] = []
    /// Where the mouse pointer was last reported (F2 names the layer under it).
    private(set) var pointer: (column: Int, row: Int)?

    /// F1: whether the page over the screen is the key page.
    var showsHelp: Bool { page?.isKeyPage == true }

    /// Covers the screen with a page (one at a time: F1 over the post's replaces it).
    mutating func open(_ page: Pager) { self.page = page }

    /// Uncovers the screen.
    mutating func closePage() { page = nil }
    mutating func toggleHitTest() { showsHitTest.toggle() }
    mutating func toggleScrollEvents() { showsScrollEvents.toggle() }

    /// Puts a line in the status bar.
    mutating func show(_ text: String, error: Bool = false) {
        message = text
        messageIsError = error
    }

    mutating func clearMessage() { message = nil }

    mutating func ringBell() { bellPending = true }
    /// The bell rang with a frame.
    mutating func bellRang() { bellPending = false }
    /// Has the next frame carry a notification (the newest one, if two came between frames).
    mutating func notify(_ escape: [UInt8]) { notificationPending = escape }
    /// The notification went with a frame.
    mutating func notificationSent() { notificationPending = [] }

    mutating func point(column: Int, row: Int) { pointer = (column, row) }
}
