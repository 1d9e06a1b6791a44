import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain synchronous Matrix client-server API client, acting as another client (e.g. Element) in tests.
public struct MatrixTestClient: Sendable {
    /// The `preset` of `createRoom`.
    public enum RoomPreset: String, Sendable {
        case privateChat = "private_chat"
        case publicChat = "public_chat"
        case trustedPrivateChat = "trusted_private_chat"
    }

    /// The homeserver, e.g. `http://127.0.0.1:PORT`.
    public let baseURL: URL
    /// The bearer token sent with every request; nil for unauthenticated calls.
    public let accessToken: String?
    /// The user this client acts as, when known.
    public let userID: String?
    /// Seconds each request may take (long-poll syncs add their own timeout).
    public var timeout: TimeInterval = 10

    /// A client for `baseURL`, authenticated when `accessToken` is given.
    public init(baseURL: URL, accessToken: String?, userID: String?) {
        self.baseURL = baseURL
        self.accessToken = accessToken
        self.userID = userID
    }

    /// Sends any request; returns the status and JSON object body (empty if none); throws only on transport failure.
    public func request(
        method: String, path: String, query: [String: String] = [:], body: [String: Any]? = nil,
        timeout: TimeInterval? = nil
    ) throws -> (status: Int, json: [String: Any]) {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath = path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.timeoutInterval = timeout ?? self.timeout
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
        }
        let answer = try MatrixHTTP.perform(request)
        let object = answer.body.isEmpty ? nil : try? JSONSerialization.jsonObject(with: answer.body)
        return (answer.status, object as? [String: Any] ?? [:])
    }

    /// Like `request`, but throws `MatrixRequestError` for any status outside 2xx.
    @discardableResult
    public func call(
        _ method: String, _ path: String, query: [String: String] = [:], body: [String: Any]? = nil,
        timeout: TimeInterval? = nil
    ) throws -> [String: Any] {
        let answer = try request(method: method, path: path, query: query, body: body, timeout: timeout)
        guard (200..<300).contains(answer.status) else {
            throw MatrixRequestError(
                request: "\(method) \(path)", status: answer.status,
                errcode: answer.json["errcode"] as? String ?? "", message: answer.json["error"] as? String ?? ""
            )
        }
        return answer.json
    }

    /// Creates a room; `alias` is a localpart (`#alias:server`); returns the room ID.
    public func createRoom(
        name: String? = nil, preset: RoomPreset = .privateChat, alias: String? = nil, topic: String? = nil,
        invite: [String] = [], initialState: [[String: Any]] = [], isPublicInDirectory: Bool = false
    ) throws -> String {
        var body: [String: Any] = ["preset": preset.rawValue, "visibility": isPublicInDirectory ? "public" : "private"]
        if let name { body["name"] = name }
        if let alias { body["room_alias_name"] = alias }
        if let topic { body["topic"] = topic }
        if !invite.isEmpty { body["invite"] = invite }
        if !initialState.isEmpty { body["initial_state"] = initialState }
        return try string("room_id", in: call("POST", "/_matrix/client/v3/createRoom", body: body))
    }

    /// Joins a room by ID or alias; returns the room ID.
    @discardableResult
    public func join(_ roomIDOrAlias: String) throws -> String {
        try string("room_id", in: call("POST", "/_matrix/client/v3/join/\(Self.escape(roomIDOrAlias))", body: [:]))
    }

    /// Leaves a room.
    public func leave(roomID: String) throws {
        try call("POST", "/_matrix/client/v3/rooms/\(Self.escape(roomID))/leave", body: [:])
    }

    /// Invites `userID` to a room.
    public func invite(roomID: String, userID: String) throws {
        try call("POST", "/_matrix/client/v3/rooms/\(Self.escape(roomID))/invite", body: ["user_id": userID])
    }

    /// Sends a room event; returns its event ID.
    @discardableResult
    public func send(
        roomID: String, content: [String: Any], type: String = "m.room.message", txnID: String = UUID().uuidString
    ) throws -> String {
        let path = "/_matrix/client/v3/rooms/\(Self.escape(roomID))/send/\(Self.escape(type))/\(Self.escape(txnID))"
        return try string("event_id", in: call("PUT", path, body: content))
    }

    /// Sends an `m.text` message (optionally a reply to `inReplyTo`); returns its event ID.
    @discardableResult
    public func sendText(roomID: String, body: String, inReplyTo: String? = nil) throws -> String {
        var content: [String: Any] = ["msgtype": "m.text", "body": body]
        if let inReplyTo { content["m.relates_to"] = ["m.in_reply_to": ["event_id": inReplyTo]] }
        return try send(roomID: roomID, content: content)
    }

    /// Sets a state event; returns its event ID.
    @discardableResult
    public func sendState(roomID: String, type: String, stateKey: String = "", content: [String: Any]) throws -> String {
        let path = "/_matrix/client/v3/rooms/\(Self.escape(roomID))/state/\(Self.escape(type))/\(Self.escape(stateKey))"
        return try string("event_id", in: call("PUT", path, body: content))
    }

    /// Redacts an event; returns the redaction's event ID.
    @discardableResult
    public func redact(roomID: String, eventID: String, reason: String? = nil, txnID: String = UUID().uuidString) throws -> String {
        let path = "/_matrix/client/v3/rooms/\(Self.escape(roomID))/redact/\(Self.escape(eventID))/\(Self.escape(txnID))"
        return try string("event_id", in: call("PUT", path, body: reason.map { ["reason": $0] } ?? [:]))
    }

    /// One page of `/messages` (`dir` "b" newest first, "f" oldest first); returns the raw `chunk`.
    public func messages(roomID: String, dir: String = "b", limit: Int = 100, from: String? = nil) throws -> [[String: Any]] {
        try messagesPage(roomID: roomID, dir: dir, limit: limit, from: from).chunk
    }

    /// One page of `/messages` with the `end` token for the next page (nil at the end).
    public func messagesPage(roomID: String, dir: String = "b", limit: Int = 100, from: String? = nil) throws
        -> (chunk: [[String: Any]], end: String?) {
        var query = ["dir": dir, "limit": String(limit)]
        if let from { query["from"] = from }
        let json = try call("GET", "/_matrix/client/v3/rooms/\(Self.escape(roomID))/messages", query: query)
        return (json["chunk"] as? [[String: Any]] ?? [], json["end"] as? String)
    }

    /// The bodies of the room's `m.room.message` events, oldest first (the newest `limit` events).
    public func messageBodies(roomID: String, limit: Int = 100) throws -> [String] {
        try messages(roomID: roomID, dir: "b", limit: limit).reversed().compactMap { event in
            guard event["type"] as? String == "m.room.message" else { return nil }
            return (event["content"] as? [String: Any])?["body"] as? String
        }
    }

    /// A raw `/sync` answer; `timeout` is the server's long-poll wait in milliseconds.
    public func sync(since: String? = nil, timeout: Int = 0, filter: String? = nil) throws -> [String: Any] {
        var query = ["timeout": String(timeout)]
        if let since { query["since"] = since }
        if let filter { query["filter"] = filter }
        return try call("GET", "/_matrix/client/v3/sync", query: query, timeout: self.timeout + Double(timeout) / 1000)
    }

    /// Sets this client's user's display name.
    public func setDisplayName(_ displayName: String) throws {
        guard let userID else { throw SynapseFixtureError("setDisplayName failed: the client has no userID") }
        try call("PUT", "/_matrix/client/v3/profile/\(Self.escape(userID))/displayname", body: ["displayname": displayName])
    }

    /// Percent-encodes one path segment (room IDs, aliases, event types, user IDs).
    public static func escape(_ segment: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
    }

    private func string(_ key: String, in json: [String: Any]) throws -> String {
        guard let value = json[key] as? String else {
            throw SynapseFixtureError("the answer had no \(key): \(json)")
        }
        return value
    }
}
