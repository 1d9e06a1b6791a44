import Foundation
@testable import ScrollEngine
@testable import ThreadModel
@testable import CommentTUI
import CommentTUITestSupport

extension CommentApp {
    /// Runs animations and timers to their end (five seconds on).
    func settle() {
        advance(to: now + 5)
    }

    /// One event as the loop delivers it: the clocks first (when given), then the event.
    @discardableResult
    func handle(_ event: InputEvent, wallClock: Date? = nil, at time: ScrollInstant? = nil) -> AppCommand? {
        if let wallClock { wallTime = wallClock }
        return update(event, at: time).first
    }

    /// How the header snaps (tests switch it on an open app).
    var snapMode: SnapMode {
        get { feed.scroll.snapMode }
        set { feed.scroll.snapMode = newValue }
    }
}

extension HeadlessScreen {
    /// Shows the app's next frame and tells the app it was shown, as the loop does.
    func show(_ app: CommentApp) {
        let frame = app.render()
        present(frame, full: false)
        app.didPresent(frame)
    }
}

/// A file's appended records (line numbers from 100) as the file source reports them.
func fileUpdates(_ records: [ThreadRecord], problems: [ThreadFileProblem] = [], label: String = "t.jsonl") -> [ThreadUpdate] {
    let appended = ThreadFileUpdate(records: records.enumerated().map { ($0.element, 100 + $0.offset) }, problems: problems)
    return ThreadFileSource.updates(from: appended, label: label)
}

extension CommentApp {
    /// The in-memory source a fixture opened the app on.
    var memorySource: InMemoryThreadSource { source as! InMemoryThreadSource }
}

extension CommentApp {
    /// Every comment the app holds, oldest first.
    var allComments: [Comment] { (0..<commentCount).compactMap { comment(at: $0) } }
}
