import Foundation
import ScrollEngine
import ThreadModel

/// Moving between threads: home, the switcher, the next thread with unread or a mention, and
/// threads that finish opening.
extension CommentClient {
    /// Shows the thread `key`: at once when it is open, else once it opens (home says so meanwhile).
    public func show(_ key: ThreadKey) {
        switcher = nil
        if sessions[key] != nil {
            leaveCurrent()
            place = .thread(key)
            switchedSinceLastFrame = true
            markOnScreen()
            awaited = nil
            let session = sessions[key]!
            // Found through the filter: home shows every thread again when the reader comes back.
            _ = home?.perform(.clearFilter)
            session.wallTime = wallTime
            session.resize(columns: size.columns, rows: size.rows)
            session.advance(to: clock.now)
            refreshHome()
            return
        }
        guard let opener else { return }
        awaited = key
        say("opening \(VisibleText.escape(summaries[key]?.name ?? key.description))…")
        opener.open(key)
    }

    /// Shows home; the thread that was on screen stays open, as it was.
    public func showHome() {
        guard home != nil else { return }
        switcher = nil
        leaveCurrent()
        place = .home
        switchedSinceLastFrame = true
        markOnScreen()
        refreshHome()
    }

    /// What leaving the thread on screen keeps: the draft saved now, not at its timer.
    private func leaveCurrent() {
        current?.prepareToExit()
    }

    /// An opening ended: a session is made of it, shown if it is the one the reader waits for.
    func finishOpening(_ opened: ThreadOpener.Opened) {
        switch opened.result {
        case .success(let target):
            // Opened twice, or left while it opened: closed, never shown.
            guard sessions[opened.key] == nil, !leftRooms.contains(opened.key) else {
                target.source.close()
                return
            }
            adopt(target, as: opened.key)
            if awaited == opened.key {
                homeMessage = nil
                show(opened.key)
            }
        case .failure(let error):
            if awaited == opened.key { awaited = nil }
            let name = summaries[opened.key]?.name ?? opened.key.description
            let words = (error as? CommandFailure)?.message ?? "\(error)"
            say("\(VisibleText.escape(name)) did not open: \(VisibleText.escape(words))", error: true)
        }
    }

    /// The next thread after the one on screen (or the selected row at home), in home's order,
    /// that has unread comments (`mentions` false) or calls for the reader (true), if any.
    func nextThread(withMentions mentions: Bool) -> ThreadKey? {
        guard let home else { return nil }
        let after: ThreadKey?
        switch place {
        case .home: after = home.selectedKey
        case .thread(let key): after = key
        }
        return mentions ? home.nextMention(after: after) : home.nextUnread(after: after)
    }

    /// Gives home what every thread's summary says now: the accounts' rooms, remembered files,
    /// and the open threads' own counts where they know better (a file's read marker).
    func refreshHome() {
        guard let home else { return }
        // A room's counts are its server's (they follow receipts from every client); a file's
        // are its open session's.
        for key in openOrder where key.account == nil {
            if let session = sessions[key] { summaries[key] = fileSummary(of: session, key: key) }
        }
        guard summaries != summariesShown else { return }
        summariesShown = summaries
        home.replaceAll(Array(summaries.values))
    }

    /// A file thread's row from its open session: its title, newest comment and unread count.
    private func fileSummary(of session: CommentApp, key: ThreadKey) -> ThreadSummary {
        var summary = summaries[key] ?? ThreadSummary(key: key, name: session.source.thread.title)
        summary.name = session.currentTitle
        if let newest = session.newestComment {
            summary.preview = newest.body
            summary.author = newest.authorName
            summary.activity = newest.date
        }
        summary.unread = session.unreadCount
        summary.highlights = session.unreadMentionCount
        return summary
    }
}
