import Foundation
import ThreadModel

/// Opening one post of a room (a Matrix thread) as a thread: the root event is the post in the
/// header, its `m.thread` replies the comments, newest page first from `/relations`.
///
/// The account's sync position is taken before the page is read, so what the sync brings after
/// it overlaps the page rather than leaving a gap (the timeline applies an event once).
extension MatrixRoomOpening {
    init(client: MatrixClient, address: MatrixRoomAddress, root: String, me: String, pageSize: Int,
         joinsEncrypted: Bool = false, awaiting sync: MatrixAccountSync? = nil) throws {
        self.me = me
        roomID = try Self.joinedRoom(client: client, address: address, joinsEncrypted: joinsEncrypted)
        // Our receipt, asked at once beside the other requests (a server without sliding sync
        // answers slower); one moved after the page was read is placed all the same.
        let ownReceipts = client.ownReceiptsAsked(room: roomID)
        filter = Self.filter(room: roomID, pageSize: pageSize, receipts: true)
        if let known = sync?.position ?? (sync?.isRunning == true ? sync?.awaitPosition(timeout: MatrixAccountSync.positionWait) : nil) {
            nextBatch = known
        } else {
            let positionFilter = Self.filter(room: roomID, pageSize: 1, leavingOut: "!comment-tui-\(UUID().uuidString):opening.invalid")
            nextBatch = try client.sync(since: nil, filter: positionFilter, wait: 0)["next_batch"]?.string
        }
        var current: [String: JSONValue] = [:]
        let state = try client.state(room: roomID)
        for event in state { Self.note(event, in: &current) }
        func content(_ type: String) -> JSONValue? { current["\(type)\u{0}"]?["content"] }
        var joined: [String: String?] = [:]
        for event in state where event["type"]?.string == "m.room.member" && event["content"]?["membership"]?.string == "join" {
            if let id = event["state_key"]?.string { joined[id] = event["content"]?["displayname"]?.string }
        }
        var members = MatrixMembers(me: me)
        members.update(joined)
        timeline = MatrixTimeline(members: members)
        timeline.scope = .post(root: root)
        timeline.postEventID = root
        // An encrypted post's events decrypt with the account's keys, as the room's do.
        let room = roomID
        timeline.decryption = sync?.roomKeys.map { MatrixRoomDecryption(roomID: room, keys: $0) }
        if current["m.room.encryption\u{0}"] != nil { _ = timeline.switchEncryptionOn() }
        power = MatrixReaderMention.Power(levels: content("m.room.power_levels"), create: current["m.room.create\u{0}"])

        let rootEvent: JSONValue
        do {
            let served = try client.event(room: roomID, id: root)
            rootEvent = timeline.decryption?.open(served).event ?? served
        } catch let error as MatrixError where error.status == 404 {
            throw MatrixError(error.kind, "no post \(VisibleText.escape(root)) in this room: \(error.message)")
        }
        if let parent = MatrixTimelineScope.threadRoot(of: rootEvent) {
            throw MatrixError(.malformed, "\(VisibleText.escape(root)) is a comment in the post \(VisibleText.escape(parent)): open that post")
        }
        let header = Self.postHeader(rootEvent, members: timeline.members)
        let roomName = content("m.room.canonical_alias")?["alias"]?.string ?? content("m.room.name")?["name"]?.string ?? address.identifier
        alias = address.isAlias ? address.identifier : content("m.room.canonical_alias")?["alias"]?.string
        label = VisibleText.escape(roomName) + " › " + VisibleText.escape(String(header.title.prefix(40)))

        let page = MatrixThreadPage(answer: try client.threadReplies(room: roomID, root: root, from: nil, limit: pageSize), root: root)
        var opened: [Comment] = []
        for update in timeline.applyNewer(page.oldestFirst) {
            if case .commentsAppended(let list) = update { opened += list }
            if case .commentEdited(let edited) = update, let at = opened.firstIndex(where: { $0.id == edited.id }) { opened[at] = edited }
        }
        comments = opened
        olderToken = page.olderToken
        thread = CommentThread(id: roomID, title: header.title, author: header.author, created: header.created, body: header.body,
                               users: timeline.members.users)
        let receipts = ownReceipts().map { MatrixOwnReceipts.receipts(inPost: root, among: $0, me: me) } ?? []
        placePostDivider(receipts: receipts, root: root, page: page.oldestFirst, client: client)
    }

    /// The post a root event makes: its first line the title, the rest the body, its newest
    /// bundled edit applied (an edit by anyone but its sender is none).
    static func postHeader(_ root: JSONValue, members: MatrixMembers) -> ThreadHeader {
        let reader = MatrixEventReader(handle: { members.handles[$0] }, name: { members.name(of: $0) })
        let sender = root["sender"]?.string ?? ""
        var markdown = root["content"].flatMap { reader.markdown(of: $0, sender: sender, isReply: false) } ?? MatrixEventReader.unreadable
        if root["unsigned"]?["redacted_because"] != nil || root["content"]?.object?.isEmpty == true { markdown = MatrixEventReader.deleted }
        if let id = root["event_id"]?.string, let edit = MatrixThreadPage.bundledEdit(of: root, id: id),
           case .edit(_, let editor, let body, _) = reader.read(edit), editor == sender {
            markdown = body
        }
        let lines = markdown.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        let title = String(lines.first ?? "").trimmingCharacters(in: .whitespaces)
        let body = lines.count > 1 ? String(lines[1]).trimmingCharacters(in: .whitespacesAndNewlines) : ""
        return ThreadHeader(id: root["event_id"]?.string ?? "", title: title.isEmpty ? "(post)" : title, author: sender,
                            created: MatrixServerNumber.time(milliseconds: root["origin_server_ts"]), body: body)
    }
}
