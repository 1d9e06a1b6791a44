import Foundation
import ThreadModel

/// Desktop notifications across threads: each open thread weighs its own arrivals (off screen
/// they notify though the terminal has the focus); rooms not open notify from their account's
/// counts. Whatever was raised leaves with the frame on screen, whichever thread raised it.
extension CommentClient {
    /// Whether the terminal has the focus, as its last focus report said.
    var terminalFocused: Bool { focusedTerminal }

    /// A focus report: every open thread hears it (their policies count the first arrival after
    /// the focus went), and rooms not open are weighed against it.
    func focusChanged(_ focused: Bool) -> [AppCommand] {
        focusedTerminal = focused
        roomNotifications?.terminalFocusChanged(focused, at: clock.now)
        for session in sessions.values { session.terminalFocusChanged(focused) }
        return []
    }

    /// The thread as a notification speaks of it: its text kept out of a private or encrypted
    /// room (until home knows its join rule, a room counts as private).
    func notificationThread(of key: ThreadKey) -> NotificationThread {
        guard key.account != nil else { return NotificationThread(key: key, isPrivate: false) }
        let summary = summaries[key]
        return NotificationThread(key: key, isDirect: summary?.isDirect ?? false,
                                  isPrivate: summary.map { $0.isPrivate || $0.isEncrypted } ?? true)
    }

    /// Gives each open room what home learned of it since it opened (direct, private).
    func refreshNotificationThreads() {
        for (key, session) in sessions where key.account != nil { session.notificationThread = notificationThread(of: key) }
    }

    /// Tells each open thread whether it is the one on screen.
    func markOnScreen() {
        for (key, session) in sessions { session.isOnScreen = place == .thread(key) }
    }

    /// Puts a notification raised by any thread (or a room not open) on the frame; a bell style
    /// rings the frame's bell once.
    func addNotifications(to frame: inout Frame) {
        var escape = frame.notification
        for key in openOrder where place != .thread(key) {
            guard let session = sessions[key] else { continue }
            escape += session.takeNotification()
            if session.takeBell() { frame.ringsBell = true }
        }
        if pendingRoomBell { frame.ringsBell = true }
        escape += pendingRoomNotification
        pendingRoomNotification = []
        pendingRoomBell = false
        frame.notification = escape
    }

    /// Weighs what changed in an account's rooms not open here: a new highlight, or a new
    /// comment in a direct room, notifies with the room's name and the author (the text only
    /// for a public room that is not encrypted).
    func weighRoomChanges(from old: [ThreadKey: ThreadSummary], to new: [ThreadSummary]) {
        guard roomNotifications != nil else { return }
        // A post's counts are in its room's too: the room's row alone notifies.
        for row in new where sessions[row.key] == nil && row.key.postRoom == nil {
            // A row first seen, or seen without its counts (home's first window), is no news.
            guard let before = old[row.key], !before.countsPending else { continue }
            let mentioned = row.highlights > before.highlights
            let direct = row.isDirect && row.unread > before.unread
            guard mentioned || direct, row.activity != before.activity || mentioned else { continue }
            let isPrivate = row.isPrivate || row.isEncrypted
            let text = isPrivate ? nil : row.preview.map { CommentApp.notificationText(of: $0, handles: { _ in nil }) }
            let arrival = NotificationArrival(thread: row.key, threadName: row.name, authorName: row.author ?? "someone",
                                              text: text, callsForReader: mentioned, isDirect: row.isDirect,
                                              isPrivate: isPrivate, isOnScreen: false, terminalFocused: focusedTerminal)
            guard let escape = roomNotifications?.escape(for: arrival, at: clock.now) else { continue }
            if roomNotifications?.style == .bell { pendingRoomBell = true } else { pendingRoomNotification += escape }
        }
    }
}
