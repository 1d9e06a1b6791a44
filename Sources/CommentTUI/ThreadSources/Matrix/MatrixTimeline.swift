import Foundation
import ThreadModel

/// What the thread knows of a room's events, and how new ones change it: the comments handed to
/// the app (by event id), our sent comments' ids, and edits waiting for their target.
///
/// Pure: the source feeds it events from syncs and pages and passes on the updates it returns.
struct MatrixTimeline {
    private(set) var members: MatrixMembers
    /// The post's event: shown in the header, never as a comment.
    var postEventID: String?
    /// Which messages are comments: the room's own, or one post's replies.
    var scope = MatrixTimelineScope.room
    /// The event of the newest comment applied as newer (a post's comment falls back to it).
    private(set) var newestComment: String?
    /// The events known to be posts' roots: a thread reply named them, or the server bundled a
    /// thread summary with them (`unsigned.m.relations.m.thread`).
    private(set) var postRoots: Set<String> = []
    /// What is kept of each comment handed out, by event id: enough to recognise it again, and
    /// to edit or delete it, without its text (the app keeps the text, in a window of pages).
    private var known: [String: KnownComment] = [:]
    /// Comments whose text changed after they were handed out (edited, deleted), as last reported.
    private(set) var changed: [String: Comment] = [:]
    /// The app's ids for our own comments, by event id (the app named them before sending).
    private var appIDs: [String: String] = [:]
    /// Event ids by the app's id, for read markers on our own comments.
    private var eventIDs: [String: String] = [:]
    /// Transaction ids (the app's comment ids) sent and not yet echoed.
    private(set) var unconfirmed: Set<String> = []
    /// Events by the transaction id they were sent under (ours, echoed by the server).
    private(set) var echoedTransactions: [String: String] = [:]
    /// The newest valid edit of each event not loaded yet, by target.
    private var waitingEdits: [String: (body: String, at: Date, sender: String)] = [:]
    /// Whether the room has end-to-end encryption switched on (seen in its state or timeline,
    /// or known when opening): it never goes off again, and nothing is sent in plaintext after.
    private(set) var isEncrypted = false
    /// The encrypted events met, by event id: what decrypting them in place will need.
    internal(set) var encryptedEvents: [String: MatrixEncryptedEvent] = [:]
    /// Opens the room's encrypted events before they are read (nil: they stay rows that say so).
    var decryption: MatrixRoomDecryption?
    /// The rows made in place of what cannot be shown (encrypted events, the switch), by id.
    internal(set) var placeholders: Set<String> = []
    /// The reactions met, by the event they annotate (`MatrixTimeline+Reactions`).
    var reactions = MatrixReactions()
    /// Comments whose event is no plain message (an emote, media, one that does not read), by
    /// event id: an edit would make them `m.text`, so they are not edited.
    private(set) var notPlainText: Set<String> = []
    /// The room's posts summed up under their roots (`MatrixTimeline+PostSummaries`).
    var threadSummaries = MatrixThreadSummaries()

    init(members: MatrixMembers) {
        self.members = members
        reactions = MatrixReactions(me: members.me)
    }

    /// A comment handed out, without its text.
    private struct KnownComment {
        var author: String
        var created: Date
        var edited: Date?
        var isDeleted: Bool
        var replyTo: String?
        init(_ comment: Comment) {
            author = comment.author
            created = comment.created
            edited = comment.edited
            replyTo = comment.replyTo
            isDeleted = comment.isDeleted
        }
    }

    /// Whether a comment with this event id was handed out.
    func knows(_ eventID: String) -> Bool { known[eventID] != nil }

    /// When the comment with this event id was sent, if one was handed out.
    func created(ofComment eventID: String) -> Date? { known[eventID]?.created }

    /// Ids of the events applied as newer (any type): a room's opening, its account's sync and
    /// its own catch-up overlap, and what one of them brought is never applied again.
    private var applied: Set<String> = []

    /// Whether the event was applied already, or is a comment handed out.
    func hasApplied(eventID: String) -> Bool { applied.contains(eventID) || known[eventID] != nil }

    /// Whether the event was applied as newer here (an opening's page, a sync, a gap filled), not
    /// only known from elsewhere (the offline copy, our send's answer): a sync window holding one
    /// joins what the timeline has with nothing missing between.
    func wasAppliedAsNewer(_ event: JSONValue) -> Bool { event["event_id"]?.string.map(applied.contains) ?? false }

    /// Whether the event (an event object) was applied already.
    func hasApplied(_ event: JSONValue) -> Bool { event["event_id"]?.string.map(hasApplied(eventID:)) ?? false }

    /// Whom a reply to a comment handed out mentions (MSC4142): the event's real sender, never
    /// `me` (Element leaves us out of our own replies), nor an imported comment's made-up author.
    func replyMention(ofEvent eventID: String, me: String) -> String? {
        guard let sender = importSenders[eventID] ?? known[eventID]?.author, sender != me,
              MatrixMembers.server(of: sender) != MatrixImportOrigin.server else { return nil }
        return sender
    }

    /// The real senders of imported comments handed out (their `author` is the original author).
    private var importSenders: [String: String] = [:]

    /// Comments handed out so far.
    var knownCount: Int { known.count }

    /// Records a comment as handed out (its text is only kept if it changed).
    mutating func remember(_ comment: Comment) {
        known[comment.id] = KnownComment(comment)
        if comment.edited != nil || comment.isDeleted { changed[comment.id] = comment }
    }

    var reader: MatrixEventReader {
        let members = members
        return MatrixEventReader(handle: { members.handles[$0] }, name: { members.name(of: $0) })
    }

    /// The app's id for an event (ours keep the id the app gave them).
    func commentID(forEvent eventID: String) -> String { appIDs[eventID] ?? eventID }

    /// The event id for an app's comment id, if known.
    func eventID(forComment commentID: String) -> String? { eventIDs[commentID] ?? (known[commentID] != nil ? commentID : nil) }

    /// A comment of ours is on its way under this transaction id.
    mutating func willSend(transactionID: String) { unconfirmed.insert(transactionID) }

    /// A comment of ours the reader gave up on (discarded, or taken back into the draft): if it
    /// reached the room after all, its echo is a comment like anyone's.
    mutating func abandon(transactionID: String) { unconfirmed.remove(transactionID) }

    /// The server accepted a send: its event is ours under the app's id. True the first time
    /// (the comment is confirmed then, whether the answer or the echo came first).
    @discardableResult
    mutating func sent(transactionID: String, eventID: String) -> Bool {
        appIDs[eventID] = transactionID
        eventIDs[transactionID] = eventID
        newestComment = eventID
        return unconfirmed.remove(transactionID) != nil
    }

    /// Applies events newer than all known (a sync's timeline or a gap filled), oldest first.
    mutating func applyNewer(_ events: [JSONValue], state: [JSONValue] = []) -> [ThreadUpdate] {
        var updates = applyState(state)
        var appended: [Comment] = []
        // A run of member events is applied at once: its handles are assigned once, not per event.
        var joining: [String: String?] = [:]
        func applyJoining() {
            guard !joining.isEmpty else { return }
            let changed = members.update(joining)
            joining = [:]
            if !changed.isEmpty { updates.append(.usersChanged(changed)) }
        }
        func flush() {
            if !appended.isEmpty { updates.append(.commentsAppended(appended)); appended = [] }
            applyJoining()
        }
        // The comments whose reactions changed, in order: counted once each, after the batch
        // (counting per reaction event would be quadratic in a batch of them).
        var reacted: [String] = []
        var reactedSet: Set<String> = []
        func touched(_ target: String) { if reactedSet.insert(target).inserted { reacted.append(target) } }
        var summed: Set<String> = []
        for received in events {
            if let id = received["event_id"]?.string, !applied.insert(id).inserted { continue }
            let (event, unreadable) = decryption?.open(received) ?? (received, nil)
            notePostRoot(event)
            // The run's members are known before any other event is read (its names, its pills).
            if event["type"]?.string != "m.room.member" { applyJoining() }
            switch reader.read(event) {
            case .comment(let comment, let transactionID, let imported):
                if let root = notePost(newer: event) { summed.insert(root) }
                if comment.id == postEventID || known[comment.id] != nil || !isInScope(event) { continue }
                noteKind(of: event, id: comment.id)
                if imported != nil, let sender = event["sender"]?.string { importSenders[comment.id] = sender }
                if let imported, let user = adoptImported(imported) { flush(); updates.append(.usersChanged([user])) }
                if let transactionID { echoedTransactions[transactionID] = comment.id }
                let txn = transactionID ?? appIDs[comment.id]
                if let txn, unconfirmed.contains(txn) || eventIDs[txn] != nil {
                    // Our own comment's echo: the app has it already, under its own id.
                    remember(comment)
                    if sent(transactionID: txn, eventID: comment.id) { flush(); updates.append(.sendConfirmed(commentID: txn)) }
                    continue
                }
                let shown = withWaitingEdit(comment)
                remember(shown)
                newestComment = comment.id
                appended.append(relabelled(shown))
            case .edit(let target, let sender, let body, let at):
                if let edited = edit(target: target, sender: sender, body: body, at: at) {
                    flush()
                    updates.append(.commentEdited(edited))
                }
            case .reaction(let id, let reaction):
                // A deleted comment takes no reactions.
                if known[reaction.target]?.isDeleted == true { continue }
                if reactions.add(eventID: id, reaction) { touched(reaction.target) }
            case .redaction(let target):
                if let annotated = reactions.remove(eventID: target) {
                    touched(annotated)
                } else if let comment = known[target] {
                    let deleted = Comment(id: target, author: comment.author, created: comment.created, body: MatrixEventReader.deleted,
                                          isDeleted: true)
                    remember(deleted)
                    flush()
                    updates.append(.commentEdited(relabelled(deleted)))
                    // Its reactions go with it.
                    if reactions.hasReactions(target) { reactions.removeAll(target: target); touched(target) }
                } else if let root = threadSummaries.replyRedacted(target) {
                    summed.insert(root)
                } else {
                    waitingEdits[target] = (MatrixEventReader.deleted, .distantFuture, "")
                }
            case .member(let id, let name, let joined):
                // A leave carries no display name: the comments of who left keep theirs.
                if !joined, members.names[id] != nil || joining[id] != nil { continue }
                if !appended.isEmpty { updates.append(.commentsAppended(appended)); appended = [] }
                joining[id] = name
            case .encrypted(var encrypted):
                if let root = notePost(newer: event) { summed.insert(root) }
                encrypted.unreadable = unreadable
                if unreadable?.waitsForKey == true { encrypted.source = received }
                if isInScope(event), let row = encryptedRow(encrypted) { appended.append(row) }
            case .encryptionSwitchedOn(let row):
                let held = switchEncryptionOn()
                if !held.isEmpty { flush(); updates += held }
                if let row, let shown = newRow(row) { appended.append(shown) }
            case .roomName, .ignored:
                continue
            }
        }
        flush()
        boundLooseReactions()
        boundLoosePosts()
        return updates + reacted.map(reactionsUpdate(of:)) + postSummaryUpdates(summed)
    }

    /// Applies a page of older events as `/messages?dir=b` gives them (newest first); returns
    /// the page's comments oldest first, and member changes.
    mutating func applyOlder(_ events: [JSONValue], state: [JSONValue]) -> (comments: [Comment], updates: [ThreadUpdate]) {
        var updates = applyState(state)
        var importedUsers: [User] = []
        var page: [Comment] = []
        var reacted: Set<String> = []
        var summed: Set<String> = []
        for received in events {
            let (event, unreadable) = decryption?.open(received) ?? (received, nil)
            notePostRoot(event)
            switch reader.read(event) {
            case .comment(let comment, _, let imported):
                if let root = notePost(older: event) { summed.insert(root) }
                guard isInScope(event) else { continue }
                noteKind(of: event, id: comment.id)
                if imported != nil, let sender = event["sender"]?.string { importSenders[comment.id] = sender }
                if let imported, let user = adoptImported(imported) { importedUsers.append(user) }
                // Ours from an earlier run, shown under the app's id since its outbox resend.
                if comment.id == postEventID || known[comment.id] != nil || appIDs[comment.id] != nil { continue }
                let shown = withWaitingEdit(comment)
                remember(shown)
                page.append(relabelled(shown))
                // Deleted since: the reactions newer pages brought go with it.
                if shown.isDeleted, reactions.hasReactions(comment.id) {
                    reactions.removeAll(target: comment.id)
                    reacted.insert(comment.id)
                }
            case .edit(let target, let sender, let body, let at):
                // Newer than its target (which is further back): keep the newest valid one.
                if let waiting = waitingEdits[target], waiting.at >= at { continue }
                waitingEdits[target] = (body, at, sender)
            case .redaction(let target):
                waitingEdits[target] = (MatrixEventReader.deleted, .distantFuture, "")
            case .reaction(let id, let reaction):
                // Its redaction, newer, was met first: it is gone; so is one to a deleted comment.
                if isRedaction(waitingEdits[id]) { waitingEdits[id] = nil; continue }
                if isRedaction(waitingEdits[reaction.target]) || known[reaction.target]?.isDeleted == true { continue }
                if reactions.add(eventID: id, reaction) { reacted.insert(reaction.target) }
            case .encrypted(var encrypted):
                encrypted.unreadable = unreadable
                if unreadable?.waitsForKey == true { encrypted.source = received }
                if isInScope(event), let row = encryptedRow(encrypted) { page.append(row) }
            case .encryptionSwitchedOn(let row):
                updates += switchEncryptionOn()
                if let row, let shown = newRow(row) { page.append(shown) }
            case .member, .roomName, .ignored:
                continue
            }
        }
        if !importedUsers.isEmpty { updates.append(.usersChanged(importedUsers)) }
        boundLooseReactions()
        threadSummaries.batchEnded()
        updates += reacted.sorted().map(reactionsKnown(of:))
        updates += postSummaryUpdates(summed)
        return (page.reversed(), updates)
    }

    /// Notes the post's root a thread reply names, or the event itself when it has a thread
    /// summary or is marked as a post (`MatrixPostMark`: a post started here, with no reply yet).
    private mutating func notePostRoot(_ event: JSONValue) {
        if let root = MatrixTimelineScope.threadRoot(of: event) { postRoots.insert(root) }
        if event["unsigned"]?["m.relations"]?["m.thread"]?.object != nil || MatrixPostMark.isMarkedRoot(event),
           let id = event["event_id"]?.string { postRoots.insert(id) }
    }

    /// Whether a message or encrypted event is one of this thread's comments (`scope`).
    private func isInScope(_ event: JSONValue) -> Bool { scope.admits(threadRoot: MatrixTimelineScope.threadRoot(of: event)) }

    /// Member events and the switch to encryption (a page's lazy-loaded state, a sync's state block).
    mutating func applyState(_ state: [JSONValue]) -> [ThreadUpdate] {
        var changes: [String: String?] = [:]
        var updates: [ThreadUpdate] = []
        for event in state {
            switch reader.read(event) {
            case .member(let id, let name, let joined) where joined || members.names[id] == nil: changes[id] = name
            case .encryptionSwitchedOn: updates += switchEncryptionOn()
            default: break
            }
        }
        guard !changes.isEmpty else { return updates }
        let changed = members.update(changes)
        return updates + (changed.isEmpty ? [] : [.usersChanged(changed)])
    }

    /// The room is encrypted from now on; the first time, without keys to encrypt with, says
    /// that nothing is sent (`.sendingHeld`).
    mutating func switchEncryptionOn() -> [ThreadUpdate] {
        guard !isEncrypted else { return [] }
        isEncrypted = true
        return decryption == nil ? [.sendingHeld(MatrixEncryption.notice)] : []
    }

    /// Switches encryption on if `events` hold an `m.room.encryption` state event.
    mutating func switchEncryptionOn(ifAmong events: [JSONValue]) -> [ThreadUpdate] {
        let met = events.contains { $0["type"]?.string == "m.room.encryption" && $0["state_key"]?.string == "" }
        return met ? switchEncryptionOn() : []
    }

    /// The row for an encrypted event, kept by reference; nil for one already shown, the post,
    /// and an encrypted edit, reaction or reference (they change or annotate their target once
    /// read, as readable ones do).
    private mutating func encryptedRow(_ encrypted: MatrixEncryptedEvent) -> Comment? {
        encryptedEvents[encrypted.eventID] = encrypted
        guard encrypted.hasRow else { return nil }
        return newRow(encrypted.comment)
    }

    /// A row of the timeline's own (an encrypted event, where encryption was switched on) the
    /// first time it is met, with a deletion that came before it applied.
    private mutating func newRow(_ row: Comment) -> Comment? {
        guard row.id != postEventID, known[row.id] == nil, appIDs[row.id] == nil else { return nil }
        let shown = withWaitingEdit(row)
        remember(shown)
        placeholders.insert(shown.id)
        return shown
    }

    /// Makes an imported comment's original author a user of the thread; the user if new.
    private mutating func adoptImported(_ author: User) -> User? {
        guard members.names[author.id] == nil else { return nil }
        members.update([author.id: author.name])
        return members.user(id: author.id)
    }

    /// Comments known from elsewhere (the cache), as they were shown.
    mutating func adopt(_ comments: [Comment], placeholders: Set<String> = []) {
        for comment in comments { remember(comment) }
        self.placeholders.formUnion(placeholders)
    }

    /// Notes a comment's event that is no plain message (`notPlainText`).
    mutating func noteKind(of event: JSONValue, id: String) {
        let content = event["content"]
        let msgtype = content?["msgtype"]?.string
        if (msgtype != "m.text" && msgtype != "m.notice") || content?["body"]?.string == nil { notPlainText.insert(id) }
    }

    /// Members named directly (the joined-members list when opening).
    mutating func addMembers(_ names: [String: String?]) { members.update(names) }

    mutating func edit(target: String, sender: String, body: String, at: Date) -> Comment? {
        guard let comment = known[target] else {
            if let waiting = waitingEdits[target], waiting.at >= at { return nil }
            waitingEdits[target] = (body, at, sender)
            return nil
        }
        // Only the author may edit; a deleted comment stays deleted.
        guard comment.author == sender, !comment.isDeleted, (comment.edited ?? .distantPast) <= at else { return nil }
        let edited = Comment(id: target, author: comment.author, created: comment.created, body: body, edited: at, replyTo: comment.replyTo)
        remember(edited)
        return relabelled(edited)
    }

    /// A comment with the edit or deletion that arrived before it applied.
    private mutating func withWaitingEdit(_ comment: Comment) -> Comment {
        guard let waiting = waitingEdits.removeValue(forKey: comment.id) else { return comment }
        var shown = comment
        if isRedaction(waiting) {
            shown = shown.deleted
        } else if waiting.sender == comment.author, !comment.isDeleted {
            shown.body = waiting.body
            shown.edited = waiting.at
        }
        return shown
    }

    /// The comment under the id the app knows it by.
    func relabelled(_ comment: Comment) -> Comment {
        var copy = comment
        copy.id = commentID(forEvent: comment.id)
        copy.replyTo = comment.replyTo.map(commentID(forEvent:))
        return copy
    }
}
