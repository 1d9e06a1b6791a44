import Foundation
import ThreadModel

/// Turns GitHub REST objects (an issue and its comments) into thread records.
struct GitHubImporter {
    private var users: [User] = []
    private var idsByLogin: [String: String] = [:]
    /// Every handle given so far, lowercased: handles are unique whatever their case.
    private var takenHandles: Set<String> = []
    /// For a base handle already taken, the next number to try after it (`base-N`), so a
    /// thousand logins that share a base take a thousand steps, not a million.
    private var nextNumberByBase: [String: Int] = [:]

    /// The thread, its users in order of appearance, then its comments in the given order.
    mutating func records(issue: [String: Any], comments: [[String: Any]], issuePath: String, commentsPath: String) throws -> [ThreadRecord] {
        let number = issue["number"].map { "\($0)" } ?? "issue"
        let header = ThreadHeader(
            id: "github-\(number)",
            title: issue["title"] as? String ?? "",
            author: try user(of: issue, in: issuePath, "the issue"),
            created: try date("created_at", of: issue, in: issuePath, "the issue"),
            body: Self.body(of: issue))
        var commentRecords: [ThreadRecord] = []
        for (index, object) in comments.enumerated() {
            let what = "comment \(index + 1)"
            let created = try date("created_at", of: object, in: commentsPath, what)
            let updated = object["updated_at"] as? String
            let edited = updated.flatMap(Timestamp.parse).flatMap { $0 != created ? $0 : nil }
            let id = object["id"].map { "\($0)" } ?? "\(index + 1)"
            commentRecords.append(.comment(Comment(
                id: "github-\(id)", author: try user(of: object, in: commentsPath, what), created: created,
                body: Self.body(of: object), edited: edited)))
        }
        return [.thread(header)] + users.map(ThreadRecord.user) + commentRecords
    }

    /// An issue's or comment's Markdown, with our spoiler and ruby syntax escaped: GitHub has
    /// neither, so `a || b` or `{x|y}` there is text that must not hide or change here.
    private static func body(of object: [String: Any]) -> String {
        CommentMarkup.escapingSpoilersAndRuby(object["body"] as? String ?? "")
    }

    /// The id of an object's `user.login`, adding the user on first sight.
    private mutating func user(of object: [String: Any], in path: String, _ what: String) throws -> String {
        guard let user = object["user"] as? [String: Any], let login = user["login"] as? String else {
            // GitHub shows deleted accounts as "ghost"; a missing user gets the same treatment.
            return add(login: "ghost")
        }
        return add(login: login)
    }

    /// Adds a login as a user. Logins that are not handles (bots are `name[bot]`) get a handle
    /// made of their valid characters (`dependabot-bot`), unique, and keep the login as the name.
    private mutating func add(login: String) -> String {
        let key = login.lowercased()
        if let id = idsByLogin[key] { return id }
        // Handles are unique: a login that meets a handle made for an earlier bot gets a number.
        let handle = uniqueHandle(Handle.isValid(login) ? login : Self.handle(from: login))
        let id = "github-\(handle)"
        idsByLogin[key] = id
        users.append(User(id: id, handle: handle, name: login))
        return id
    }

    /// `base` if no user has it yet, else `base-N` with the first free N, clipped so that it
    /// stays a valid handle (at most `Handle.maximumLength` characters).
    private mutating func uniqueHandle(_ base: String) -> String {
        let key = base.lowercased()
        if takenHandles.insert(key).inserted { return base }
        var number = nextNumberByBase[key] ?? 2
        while true {
            let suffix = "-\(number)"
            let candidate = String(base.prefix(Handle.maximumLength - suffix.count)) + suffix
            number += 1
            if takenHandles.insert(candidate.lowercased()).inserted {
                nextNumberByBase[key] = number
                return candidate
            }
        }
    }

    /// `dependabot[bot]` → `dependabot-bot`; other characters outside handles become `-`.
    static func handle(from login: String) -> String {
        var text = ""
        for scalar in login.unicodeScalars {
            let c = Character(scalar)
            let kept: Character = Handle.isValid(String(c)) ? c : "-"
            // Runs of dashes become one, in one pass.
            if kept == "-", text.last == "-" { continue }
            text.append(kept)
        }
        text = String(text.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(Handle.maximumLength))
        return text.isEmpty ? "user" : text
    }

    private func date(_ key: String, of object: [String: Any], in path: String, _ what: String) throws -> Date {
        guard let text = object[key] as? String, let date = Timestamp.parse(text) else {
            throw CommandFailure("\(VisibleText.escape(path)): \(what) has no valid \(key)")
        }
        return date
    }
}
