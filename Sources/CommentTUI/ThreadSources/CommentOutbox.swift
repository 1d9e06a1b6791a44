import Foundation
import ThreadModel

/// Comments on their way to a room or a thread file, kept on disk until they are there: written
/// (and fsynced) before the first send attempt, marked sent when the server answers with the
/// event (or the append is in the file; or the comment went back into the draft at quit).
///
/// After a crash, `kill -9` or quitting offline, the next start finds what was never marked sent
/// and sends it again under the same id (a room's transaction id; a file's source first looks
/// whether the comment is in the file), so it is posted once. The file is JSON Lines, one record
/// a line: `queued` (the comment), `sent` (its id and event, or what became of it), `refused`
/// (the server refused it for good: it waits, with the reason's words and kind, for the reader
/// to retry, take it back or discard it, and is not sent blindly at the next start; a record
/// from before kinds were kept reads as of an unknown kind) and `discarded`; a torn last
/// line from a crash mid-write is ignored. Once nothing is waiting the file is removed.
struct CommentOutbox {
    /// A comment waiting to be sent, as queued.
    struct Entry: Codable, Equatable, Sendable {
        /// The transaction id: the comment's id in the app.
        var txn: String
        var author: String
        var created: Date
        var body: String
        var replyTo: String?
        /// Why it is not being sent (refused for good), as the last `refused` record says; a
        /// later `queued` record (a retry) clears it. Not part of the queued record itself.
        var notSent: SendFailure? = nil
        /// For an edit of a comment of ours (no comment of its own): the event it replaces.
        var replaces: String? = nil
        /// For a deletion of a comment of ours: the event it redacts.
        var redacts: String? = nil
        /// For an edit: whom the comment mentioned before it (the edit does not ping them again).
        var mentionedBefore: [String]? = nil
        /// For a reaction of ours (its key in `body`): the event it annotates.
        var reactsTo: String? = nil
        /// For the taking back of a reaction of ours (`reactsTo` and `body` name it): its event, redacted.
        var unreacts: String? = nil
        /// For the taking back of a reaction of ours that may have reached the room under this
        /// transaction id: finished under it (the event it is), then redacted.
        var takesBack: String? = nil

        enum CodingKeys: String, CodingKey {
            case txn, author, created, body, replyTo = "reply_to", replaces, redacts, mentionedBefore = "mentioned_before",
                 reactsTo = "reacts_to", unreacts, takesBack = "takes_back"
        }

        /// Whether it changes a comment sent before (an edit, a deletion, a reaction) rather than being one.
        var isChange: Bool { replaces != nil || redacts != nil || reactsTo != nil }

        /// The comment as the app shows it.
        var comment: Comment { Comment(id: txn, author: author, created: created, body: body) }
    }

    private struct Record: Codable {
        var type: String
        var entry: Entry?
        var txn: String?
        var event: String?
        var reason: String?
        /// The reason's `SendFailure.Kind`; absent in records written before it was kept.
        var kind: String?
    }

    /// The name it has among a thread's state files (`<stem>.outbox.jsonl`).
    static let suffix = "outbox.jsonl"

    /// The state files it is one of; it is never read or written through a link.
    let files: ThreadStateFiles

    /// The outbox file.
    var path: String { files.path(for: Self.suffix) }

    /// Comments queued and never marked sent or discarded, oldest first; those refused carry the
    /// reason in `notSent`. Throws, naming the file, when it is there but refused (a planted link).
    func unsent() throws -> [Entry] {
        guard let data = try files.read(suffix: Self.suffix) else { return [] }
        var queued: [Entry] = []
        var sent: Set<String> = []
        var refusals: [String: SendFailure] = [:]
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        for line in data.split(separator: UInt8(ascii: "\n")) {
            // A line that does not read is the torn end of a write the crash cut short.
            guard let record = try? decoder.decode(Record.self, from: Data(line)) else { continue }
            // Queued again (its author changed): the later entry holds, at the first one's place.
            if record.type == "queued" || record.type == Self.queuedReaction, let entry = record.entry {
                if let slot = queued.firstIndex(where: { $0.txn == entry.txn }) { queued[slot] = entry } else { queued.append(entry) }
                refusals[entry.txn] = nil
            }
            if record.type == "sent" || record.type == "discarded", let txn = record.txn { sent.insert(txn) }
            if record.type == "refused", let txn = record.txn {
                let kind = record.kind.flatMap(SendFailure.Kind.init(rawValue:)) ?? .unknown
                refusals[txn] = SendFailure(kind, record.reason ?? "refused")
            }
        }
        return queued.filter { !sent.contains($0.txn) }.map { entry in
            var entry = entry
            entry.notSent = refusals[entry.txn]
            return entry
        }
    }

    /// Keeps a comment before it is sent; throws when it could not be made durable.
    func queue(_ entry: Entry) throws {
        try append(Record(type: entry.reactsTo == nil ? "queued" : Self.queuedReaction, entry: entry))
    }

    /// The record type of a queued reaction (or its taking back): not `queued`, which a build from
    /// before reactions reads as a comment (it would post the key as a message), but a type such a
    /// build skips. A reaction in a `queued` record (as written before) still reads.
    static let queuedReaction = "queued_reaction"

    /// Marks a comment sent; when nothing is left waiting, removes the file.
    func markSent(_ txn: String, event: String) throws {
        try append(Record(type: "sent", txn: txn, event: event))
        if (try? unsent())?.isEmpty == true { try? files.remove(suffix: Self.suffix) }
    }

    /// Marks a comment refused for good, with the server's reason: it stays, not sent, until the
    /// reader retries (queued again) or discards it.
    func markRefused(_ txn: String, reason: SendFailure) throws {
        try append(Record(type: "refused", txn: txn, reason: reason.message, kind: reason.kind.rawValue))
    }

    /// Forgets a comment the reader discarded (or took back into the draft); when nothing is left
    /// waiting, removes the file.
    func discard(_ txn: String) throws {
        try append(Record(type: "discarded", txn: txn))
        if (try? unsent())?.isEmpty == true { try? files.remove(suffix: Self.suffix) }
    }

    private func append(_ record: Record) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A crash may have left a torn line without its newline: start on a line of our own.
        try files.append(Array("\n".utf8) + Array(try encoder.encode(record)) + Array("\n".utf8), suffix: Self.suffix)
    }
}
