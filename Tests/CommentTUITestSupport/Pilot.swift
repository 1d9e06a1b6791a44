import CommentTUI
import ScrollEngine

/// Drives an app as the loop would — events at the pilot's clock, then a frame shown on a
/// headless screen — with named keys and mouse gestures; time moves only when the test says so.
///
///     let pilot = ThreadFixture.numbered(20).pilot()
///     pilot.press(.ctrlHome)
///     pilot.settle()
///     XCTAssertEqual(pilot.lines[3], " Bo 日本 @bo · 2025-04-17")
public final class Pilot {
    /// The client driven: one thread (`init(app:screen:)`) or home and many.
    public let client: CommentClient
    /// The thread on screen.
    public var app: CommentApp {
        guard let current = client.current else { preconditionFailure("home is on screen, not a thread") }
        return current
    }
    public let screen: HeadlessScreen
    /// The pilot's clock: events carry it, `advance(by:)` moves it.
    public private(set) var time = ScrollInstant.zero
    private var decoder = InputDecoder()

    /// A pilot for `app` on `screen`; the first frame is drawn.
    public convenience init(app: CommentApp, screen: HeadlessScreen) {
        self.init(client: CommentClient(thread: app), screen: screen)
    }

    /// A pilot for a client with home; the first frame is drawn.
    public init(client: CommentClient, screen: HeadlessScreen) {
        self.client = client
        self.screen = screen
        draw()
    }

    /// Takes what every source, opening and account has ready, as the loop does when their
    /// descriptors wake it, and shows the frame after.
    public func takeUpdates() {
        client.descriptorsReady(client.updateDescriptors, at: time)
        draw()
    }

    /// The screen's rows as text (the scrollbar column and trailing blanks removed).
    public var lines: [String] { screen.plainLines }

    /// Presses a key; returns what the app asked of the loop.
    @discardableResult
    public func press(_ key: KeyPress) -> [AppCommand] { send(.key(key)) }

    /// Types text as key presses, one character each (`\n` presses Enter).
    public func type(_ text: String) {
        for character in text { press(character == "\n" ? KeyPress(.enter) : KeyPress(.character(character))) }
    }

    /// Feeds bytes as a terminal sends them (escape sequences, mouse reports, pastes).
    @discardableResult
    public func feed(_ bytes: String) -> [AppCommand] {
        var commands: [AppCommand] = []
        for event in decoder.feed(Array(bytes.utf8)) + decoder.flush() { commands += send(event) }
        return commands
    }

    /// One wheel notch at a cell.
    public func wheel(_ direction: WheelDirection, column: Int, row: Int) {
        send(.mouse(MouseEvent(direction == .up ? .wheelUp : .wheelDown, .press, column: column, row: row)))
    }

    /// A left click (press and release) at a cell.
    public func click(column: Int, row: Int) {
        send(.mouse(MouseEvent(.left, .press, column: column, row: row)))
        send(.mouse(MouseEvent(.left, .release, column: column, row: row)))
    }

    /// A left-button drag from one cell to another, a row per step, `interval` seconds apart.
    public func drag(column: Int, from start: Int, to end: Int, interval: Double = 0.016) {
        send(.mouse(MouseEvent(.left, .press, column: column, row: start)))
        for row in stride(from: start, through: end, by: start <= end ? 1 : -1).dropFirst() {
            advance(by: interval)
            send(.mouse(MouseEvent(.left, .drag, column: column, row: row)))
        }
        send(.mouse(MouseEvent(.left, .release, column: column, row: end)))
    }

    /// Sends one event at the pilot's time and shows the frame after it.
    @discardableResult
    public func send(_ event: InputEvent) -> [AppCommand] {
        let commands = client.update(event, at: time)
        draw()
        return commands
    }

    /// Moves the clock on and shows the frame at the new time.
    public func advance(by seconds: Double) {
        time = time + seconds
        client.advance(to: time)
        draw()
    }

    /// Lets time pass with no frame drawn and nothing advanced, as when the loop sleeps in
    /// `poll()` with nothing moving: the next event is the first the app hears of the new time.
    public func idle(for seconds: Double) {
        time = time + seconds
    }

    /// Draws a frame every 1/60 s while the app asks for one (at most `limit`), as the loop does;
    /// calls `each` after every frame and returns how many were drawn.
    @discardableResult
    public func runFrames(limit: Int = 600, each: (Pilot) -> Void = { _ in }) -> Int {
        var frames = 0
        while let deadline = client.nextDeadline, frames < limit {
            advance(by: max(1.0 / 60, deadline - time))
            each(self)
            frames += 1
        }
        return frames
    }

    /// Lets every animation and timer run out: five seconds on, then frames until nothing
    /// moves (what the five seconds set off, such as a search's jump to its match, runs too).
    public func settle() {
        advance(by: 5)
        runFrames()
    }

    /// Renders a frame, shows it, and reports it shown, as the loop does.
    public func draw() {
        let frame = client.render()
        screen.present(frame, full: false)
        client.didPresent(frame)
    }

    /// A wheel's direction.
    public enum WheelDirection { case up, down }
}

extension KeyPress {
    public static let enter = KeyPress(.enter)
    public static let escape = KeyPress(.escape)
    public static let tab = KeyPress(.tab)
    public static let backspace = KeyPress(.backspace)
    public static let up = KeyPress(.up)
    public static let down = KeyPress(.down)
    public static let left = KeyPress(.left)
    public static let right = KeyPress(.right)
    public static let pageUp = KeyPress(.pageUp)
    public static let pageDown = KeyPress(.pageDown)
    public static let ctrlHome = KeyPress(.home, .ctrl)
    public static let ctrlEnd = KeyPress(.end, .ctrl)
    public static let ctrlUp = KeyPress(.up, .ctrl)
    public static let ctrlDown = KeyPress(.down, .ctrl)
    public static let altUp = KeyPress(.up, .alt)
    public static let altDown = KeyPress(.down, .alt)

    /// A function key, e.g. `.f(1)`.
    public static func f(_ n: Int) -> KeyPress { KeyPress(.function(n)) }
}

extension HeadlessScreen {
    /// The screen's rows without the feed's scrollbar in the last column, trailing blanks removed.
    public var plainLines: [String] {
        lines.map { line in
            var text = line
            if text.count == size.columns || DisplayWidth.width(of: text) == size.columns,
               let last = text.last, last == "│" || last == "┃" {
                text.removeLast()
            }
            while text.last == " " { text.removeLast() }
            return text
        }
    }
}
