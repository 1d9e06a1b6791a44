import Foundation

/// Reads one line of a thread file into a record, leniently: any whitespace and field order,
/// unknown fields and types ignored, bad characters repaired.
struct ThreadRecordDecoder: Sendable {
    /// The outcome of decoding one line.
    enum Outcome: Hashable, Sendable {
        case record(ThreadRecord)
        /// A record of a type this version does not know: skipped without complaint.
        case ignored
        /// Not a record; the message says why.
        case malformed(String)
    }

    init() {}

    /// Decodes one line (without its `\n`); a blank line is ignored.
    func decode(_ line: ArraySlice<UInt8>) -> Outcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .ignored }
        let repaired = UTF8Repair.repair(line)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(repaired), options: [])
        } catch {
            return .malformed(Self.looksTorn(repaired) ? "torn line (an append that never finished), skipped" : "not valid JSON, skipped")
        }
        guard let fields = object as? [String: Any] else { return .malformed("not a JSON object, skipped") }
        guard let type = fields["type"] as? String else { return .malformed("record without a \"type\", skipped") }
        do {
            switch type {
            case "thread":
                return .record(.thread(ThreadHeader(
                    id: try string("id", fields), title: try string("title", fields), author: try string("author", fields),
                    created: try date("created", fields), body: try string("body", fields, default: ""))))
            case "user":
                let handle = try string("handle", fields)
                guard Handle.isValid(handle) else {
                    throw Problem("handle \"\(handle)\" is not 1 to 39 of A-Z a-z 0-9 _ . -")
                }
                return .record(.user(User(id: try string("id", fields), handle: handle, name: try string("name", fields, default: handle))))
            case "comment":
                let edited = fields["edited"] == nil || fields["edited"] is NSNull ? nil : try date("edited", fields)
                return .record(.comment(Comment(
                    id: try string("id", fields), author: try string("author", fields),
                    created: try date("created", fields), body: try string("body", fields), edited: edited)))
            case "edit", "delete":
                let kind: CommentChange.Kind = type == "edit" ? .edit(body: try string("body", fields)) : .delete
                return .record(.change(CommentChange(
                    comment: try string("comment", fields), author: try string("author", fields),
                    created: try date("created", fields), kind: kind)))
            case "react", "unreact":
                let key = try string("key", fields)
                if let problem = ReactionChange.keyProblem(key) { throw Problem(problem) }
                return .record(.reaction(ReactionChange(
                    comment: try string("comment", fields), author: try string("author", fields),
                    created: try date("created", fields), key: key, removes: type == "unreact")))
            default:
                return .ignored
            }
        } catch let problem as Problem {
            return .malformed("\(type) record: \(problem.message), skipped")
        } catch {
            return .malformed("\(error), skipped")
        }
    }

    private struct Problem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    private func string(_ key: String, _ fields: [String: Any], default fallback: String? = nil) throws -> String {
        if let value = fields[key] as? String { return value }
        if fields[key] == nil, let fallback { return fallback }
        throw Problem(fields[key] == nil ? "missing \"\(key)\"" : "\"\(key)\" is not a string")
    }

    private func date(_ key: String, _ fields: [String: Any]) throws -> Date {
        let text = try string(key, fields)
        guard let date = Timestamp.parse(text) else { throw Problem("\"\(key)\" is not a time like 2025-04-17T10:00:00Z") }
        return date
    }

    /// A line that starts a JSON object but never closes it: what a writer cut short leaves.
    static func looksTorn(_ line: [UInt8]) -> Bool {
        let trimmed = line.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        let last = line.last { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
        return trimmed.first == UInt8(ascii: "{") && last != UInt8(ascii: "}")
    }
}
