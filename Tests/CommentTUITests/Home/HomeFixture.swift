import Foundation
import ScrollEngine
@testable import CommentTUI

/// Threads for home's tests: named rooms of one account, their activity minutes before `now`.
enum HomeFixture {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let account = "@me:example.org"

    static func key(_ name: String) -> ThreadKey { .room(account: account, roomID: "!\(name.lowercased()):example.org") }

    /// A room named `name`, its newest comment `minutesAgo` minutes before `now` (nil: none).
    static func room(_ name: String, minutesAgo: Double?, unread: Int = 0, highlights: Int = 0,
                     preview: String? = nil, author: String? = nil, typing: [String] = [],
                     encrypted: Bool = false, inviter: String?? = nil) -> ThreadSummary {
        ThreadSummary(key: key(name), name: name, preview: preview, author: author,
                      activity: minutesAgo.map { now.addingTimeInterval(-$0 * 60) },
                      unread: unread, highlights: highlights, typing: typing, isEncrypted: encrypted,
                      invite: inviter.map { ThreadSummary.Invite(inviter: $0) })
    }

    /// `count` rooms `Room 00`, `Room 01`, … , newest first.
    static func numbered(_ count: Int) -> [ThreadSummary] {
        (0..<count).map { room(String(format: "Room %02d", $0), minutesAgo: Double($0 + 1)) }
    }

    /// A list over `summaries` placed at `columns`×`rows` (the header row, then the rows).
    static func list(_ summaries: [ThreadSummary], columns: Int = 40, rows: Int = 11,
                     clock: AppClock = AppClock(now: ScrollInstant(seconds: 1))) -> HomeList {
        let list = HomeList(clock: clock)
        list.replaceAll(summaries)
        list.place(in: CellRect(column: 0, row: 0, width: columns, height: rows))
        return list
    }
}

extension HomeList {
    /// The names of the rows shown, in order.
    var rowNames: [String] { rows.indices.map { summary(atRow: $0).name } }

    /// A key pressed, its effect (the test asserts it was taken).
    @discardableResult
    func press(_ key: KeyPress, file: StaticString = #filePath, line: UInt = #line) -> HomeEffect? {
        let (taken, effect) = handle(key)
        precondition(taken, "home did not take \(key)")
        return effect
    }

    /// Each character typed into home.
    func type(_ text: String) {
        for character in text {
            let shifted = character.isUppercase ? KeyPress(.character(character), .shift) : KeyPress(.character(character))
            press(shifted)
        }
    }
}
