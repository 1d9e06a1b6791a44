import Foundation
import ThreadModel

/// The logged-in accounts: their connections and what home asks of their rooms.
extension CommentClient {
    /// Each account's connection, for home's status bar.
    var accountConnections: [(account: String, state: ConnectionState)] {
        connections.keys.sorted().map { ($0, connections[$0]!) }
    }

    /// Takes what background work told.
    func receive(_ message: ClientMailbox.Message) {
        switch message {
        case .summaries(let account?, let rows):
            weighRoomChanges(from: summaries, to: rows)
            let kept = summaries.filter { $0.key.account != account }
            summaries = kept
            // A left room's posts go with it (by their room's key).
            for row in rows where !leftRooms.contains(row.key.postRoom ?? row.key) { summaries[row.key] = row }
            refreshNotificationThreads()
            openPostsWithQueuedComments(rows)
        case .summaries(nil, let rows):
            for row in rows { summaries[row.key] = row }
        case .connection(let account, let state):
            connections[account] = state
        case .roomsComing(let account, let count):
            roomsComing[account] = count
            home?.roomsComing = roomsComing.isEmpty ? nil : roomsComing.values.reduce(0, +)
        case .message(let text, let isError):
            say(text, error: isError)
        case .verifications(let account):
            refreshVerification(account: account)
        }
    }

    /// Joins the room of an invite and opens it (the opening joins it).
    func accept(_ key: ThreadKey) {
        guard let opener, key.account != nil else { return }
        awaited = key
        leftRooms.remove(key)
        say("joining \(VisibleText.escape(summaries[key]?.name ?? key.description))…")
        opener.open(key, acceptsInvite: true)
    }

    /// Refuses an invite; the account's next sync takes its row away.
    func decline(_ key: ThreadKey) { leaveRoom(key, words: "declined") }

    /// Leaves a room (home asked first); its thread closes if it was open.
    func leave(_ key: ThreadKey) {
        if awaited == key { awaited = nil }
        if let session = sessions.removeValue(forKey: key) {
            openOrder.removeAll { $0 == key }
            session.prepareToExit()
            // Comments still on their way stay in the outbox: said, not dropped in silence.
            if let unsent = session.unsentAtQuit { say(unsent.replacingOccurrences(of: "\n", with: " · ")) }
            session.source.close()
        }
        leaveRoom(key, words: "left")
    }

    /// Leaves the room of `key` on its account's session, off the loop's thread; the row goes
    /// at once and the outcome is said in the status bar.
    private func leaveRoom(_ key: ThreadKey, words: String) {
        guard case .room(let account, let roomID) = key, let link = accounts[account], let mailbox else { return }
        let name = VisibleText.escape(summaries[key]?.name ?? roomID)
        summaries[key] = nil
        summaries = summaries.filter { $0.key.postRoom != key }
        leftRooms.insert(key)
        refreshHome()
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                try link.client.leave(room: roomID)
                mailbox.post(.message("\(words) \(name)", isError: false))
            } catch let error as MatrixError {
                mailbox.post(.message("\(name) not \(words): \(error.message)", isError: true))
            } catch {
                mailbox.post(.message("\(name) not \(words): \(error)", isError: true))
            }
        }
    }
}
