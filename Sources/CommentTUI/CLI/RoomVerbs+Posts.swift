import Foundation
import ThreadModel

/// The verbs' side of posts (Matrix threads): `new` in a room that exists starts a post there.
extension RoomVerbs {
    /// The room `locator` names when it exists and the account is in it: a room id, or an alias
    /// the directory resolves; nil when it is an alias no room has yet (`new` creates that room)
    /// or names a post already. A room the account is not in is refused, never joined: a post
    /// starts only where the reader already is (a taken public alias is someone else's room).
    static func existingRoom(_ locator: String, as userID: String?, context: CommandContext) throws -> (MatrixClient, String)? {
        guard let address = try RoomOpener.address(locator), address.postRoot == nil else { return nil }
        let account = try RoomOpener.account(userID, context: context)
        guard let url = URL(string: account.homeserver) else { throw CommandFailure("the saved homeserver is not a URL; log in again") }
        let client = MatrixClient(homeserver: url, accessToken: account.accessToken)
        do {
            var id = address.identifier
            if address.isAlias {
                do {
                    id = try client.resolve(alias: address.identifier)
                } catch let error as MatrixError where error.status == 404 {
                    return nil
                }
            }
            guard try client.joinedRooms().contains(id) else {
                throw CommandFailure("you are not in \(VisibleText.escape(address.identifier)): a post starts only in a room you "
                                     + "are in (join it first, e.g. comment-tui open \(VisibleText.escape(locator))); nothing was posted")
            }
            return (client, id)
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(address.identifier)): \(error.message)")
        }
    }

    /// `new matrix:ROOM --title T [--body POST]` in a room that exists: sends the post's root
    /// (the title its first line, the body after a blank line), marked as a post
    /// (`MatrixPostMark`), and prints the post's locator.
    /// In an encrypted room the root goes encrypted (never in the clear; refused without keys).
    static func startPost(in room: String, client: MatrixClient, title: String, body: String?, as userID: String?,
                          context: CommandContext) throws {
        // The title is the root's first line: a line break in it would cut it short.
        let firstLine = title.split(whereSeparator: \.isNewline).joined(separator: " ")
        let markdown = [firstLine, body ?? ""].filter { !$0.isEmpty }.joined(separator: "\n\n")
        do {
            // Marked as a post, so home lists it before it has a reply and its locator opens it.
            let content = MatrixPostMark.marked(JSONValue(foundation: MatrixMessageContent(markdown: markdown, handles: { _ in nil },
                                                                                           displayName: { _ in nil }).json), title: firstLine)
            let source = try RoomOpener.open(MatrixRoomAddress(identifier: room), as: userID, context: context, follows: false)
            defer { source.stop() }
            let root = try source.post(content: content, transactionID: ThreadFileWriter.newCommentID())
            try context.print(VisibleText.escape(MatrixRoomAddress(identifier: room, postRoot: root).locator))
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(room)): \(error.message)")
        }
    }
}
