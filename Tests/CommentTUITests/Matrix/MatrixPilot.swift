import Foundation
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// Piloting the app over a real room: a pilot whose wall clock is now, pauses a person would
/// make, and the source's updates taken as the loop takes them.
extension XCTestCase {
    /// A pilot over `source` at `columns`×`rows`, its wall clock now.
    func pilot(_ source: MatrixThreadSource, columns: Int = 80, rows: Int = 24) -> Pilot {
        let app = CommentApp(source: source, me: source.reader, columns: columns, rows: rows)
        app.wallTime = Date()
        return Pilot(app: app, screen: HeadlessScreen(columns: columns, rows: rows))
    }

    /// A second passes (the app hears of it), then what the source reported is taken.
    func pause(_ pilot: Pilot, _ source: ThreadSource) {
        Thread.sleep(forTimeInterval: 1)
        pilot.app.wallTime = Date()
        pilot.advance(by: 1)
        pilot.app.receive(source.takeUpdates())
        pilot.draw()
    }

    /// Feeds the source's updates to the app, frame by frame, until `done` holds (bounded).
    func pump(_ pilot: Pilot, _ source: ThreadSource, timeout: Double = 20, _ what: String,
              file: StaticString = #filePath, line: UInt = #line, until done: () throws -> Bool) rethrows {
        let deadline = Date().addingTimeInterval(timeout)
        while try !done() {
            guard Date() < deadline else { return XCTFail("\(what) did not happen in \(timeout) s: \(pilot.lines)", file: file, line: line) }
            if let ready = source.updatesReady { _ = try? Poll.readable([ready], timeout: 0.2) }
            pilot.app.wallTime = Date()
            pilot.advance(by: 0.2)
            pilot.app.receive(source.takeUpdates())
            pilot.draw()
        }
    }

    /// Whether a row of the pilot's screen contains `text`.
    func screenHas(_ pilot: Pilot, _ text: String) -> Bool { pilot.lines.contains { $0.contains(text) } }
}
