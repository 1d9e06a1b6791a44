import Foundation
import ThreadModel

/// Turns GitHub REST objects (an issue and its comments) into thread records.
struct GitHubImporter {
    private var users: [User] = []
    private var idsByLogin: [String: String] = [:]

    /// The thread, its users in order of appearance, then its comments in the given order.
    mutating func records(issue: [String: Any], comments: [[String: Any]], issuePath: String, commentsPath: String) throws -> [ThreadRecord] {
        let number = issue["number"].map { "\($0)" } ?? "issue"
        let header = ThreadHeader(
            id: "github-\(number)",
            title: issue["title"] as? String ?? "",
            author: try user(of: issue, in: issuePath, "the issue"),
            created: try date("created_at", of: issue, in: issuePath, "the issue"),
            body: issue["body"] as? String ?? "")
        var commentRecords: [ThreadRecord] = []
        for (index, object) in comments.enumerated() {
            let what = "comment \(index + 1)"
            let created = try date("created_at", of: object, in: commentsPath, what)
            let updated = object["updated_at"] as? String
            let edited = updated.flatMap(Timestamp.parse).flatMap { $0 != created ? $0 : nil }
            let id = object["id"].map { "\($0)" } ?? "\(index + 1)"
            commentRecords.append(.comment(Comment(
                id: "github-\(id)", author: try user(of: object, in: commentsPath, what), created: created,
                body: object["body"] as? String ?? "", edited: edited)))
        }
        return [.thread(header)] + users.map(ThreadRecord.user) + commentRecords
    }

    /// The id of an object's `user.login`, adding the user on first sight.
    private mutating func user(of object: [String: Any], in path: String, _ what: String) throws -> String {
        guard let user = object["user"] as? [String: Any], let login = user["login"] as? String else {
            // GitHub shows deleted accounts as "ghost"; a missing user gets the same treatment.
            return add(login: "ghost")
        }
        guard Handle.isValid(login) else {
            throw CommandFailure("\(VisibleText.escape(path)): \(what) has a user.login that is not a valid handle: '\(VisibleText.escape(login))'")
        }
        return add(login: login)
    }

    private mutating func add(login: String) -> String {
        let key = login.lowercased()
        if let id = idsByLogin[key] { return id }
        let id = "github-\(login)"
        idsByLogin[key] = id
        users.append(User(id: id, handle: login, name: login))
        return id
    }

    private func date(_ key: String, of object: [String: Any], in path: String, _ what: String) throws -> Date {
        guard let text = object[key] as? String, let date = Timestamp.parse(text) else {
            throw CommandFailure("\(VisibleText.escape(path)): \(what) has no valid \(key)")
        }
        return date
    }
}
