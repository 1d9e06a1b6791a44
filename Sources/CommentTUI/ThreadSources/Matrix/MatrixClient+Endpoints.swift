import Foundation
import ThreadModel

/// The Client-Server API calls the thread source and the verbs use, each a thin typed wrapper.
extension MatrixClient {
    /// A session made by logging in.
    public struct Session: Sendable {
        public var userID: String
        public var accessToken: String
        public var deviceID: String
    }

    /// Logs in with a password (`m.login.password`); the answer must come whole within `deadline`.
    public func login(user: String, password: String, deadline: TimeInterval = 30) throws -> Session {
        let answer = try request("POST", ["login"], body: [
            "type": "m.login.password",
            "identifier": ["type": "m.id.user", "user": .string(user)],
            "password": .string(password),
            "initial_device_display_name": "comment-tui",
        ], timeout: deadline, limit: MatrixAnswerLimit.small)
        guard let userID = answer["user_id"]?.string, let token = answer["access_token"]?.string else {
            throw MatrixError(.malformed, "\(homeserver.absoluteString) did not return a session")
        }
        let deviceID = answer["device_id"]?.string ?? ""
        // Checked before anything is stored or sent back in a header.
        let server = homeserver.absoluteString
        guard MatrixGrammar.isUserID(userID) else {
            throw MatrixError(.malformed, "\(server) returned a user id that is not a Matrix user id; not logged in")
        }
        guard MatrixGrammar.isAccessToken(token) else {
            throw MatrixError(.malformed, """
                \(server) returned an access token that is not printable ASCII of at most \(MatrixGrammar.tokenLimit) \
                characters; not logged in
                """)
        }
        guard deviceID.isEmpty || MatrixGrammar.isDeviceID(deviceID) else {
            throw MatrixError(.malformed, """
                \(server) returned a device id that is not printable ASCII of at most \(MatrixGrammar.deviceIDLimit) \
                characters; not logged in
                """)
        }
        return Session(userID: userID, accessToken: token, deviceID: deviceID)
    }

    /// Registers a user of an application service's namespace (this client has the service's
    /// token); a user that exists already is fine.
    public func registerAppServiceUser(localpart: String) throws {
        do {
            try request("POST", ["register"], body: ["type": "m.login.application_service", "username": .string(localpart)])
        } catch let error as MatrixError where error.errcode == "M_USER_IN_USE" {}
    }

    /// Sets the display name of the user this client acts as.
    public func setDisplayName(_ name: String, of userID: String) throws {
        try request("PUT", ["profile", userID, "displayname"], body: ["displayname": .string(name)])
    }

    /// Ends this client's session on the server.
    public func logout() throws { try request("POST", ["logout"]) }

    /// The user id the token belongs to.
    public func whoami() throws -> String {
        guard let id = try request("GET", ["account", "whoami"], limit: MatrixAnswerLimit.small)["user_id"]?.string,
              MatrixGrammar.isUserID(id) else {
            throw MatrixError(.malformed, "\(homeserver.absoluteString) did not say who is signed in")
        }
        return id
    }

    /// The room an alias names.
    public func resolve(alias: String) throws -> String {
        do {
            guard let id = try request("GET", ["directory", "room", alias])["room_id"]?.string else {
                throw MatrixError(.malformed, "no room id for \(VisibleText.escape(alias))")
            }
            return id
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            throw MatrixError(error.kind, "unknown room \(VisibleText.escape(alias))")
        }
    }

    /// Joins a room by id or alias and returns its id.
    /// - Parameter via: servers in the room to join through (a link's `via`), tried in order: the
    ///   first that gets us in wins; without any, the homeserver has to know the room itself.
    public func join(_ roomIDOrAlias: String, via: [String] = []) throws -> String {
        var failure: MatrixError?
        for server in via.prefix(MatrixRoomAddress.viaLimit) {
            do {
                return try join(roomIDOrAlias, query: ["server_name": server])
            } catch let error as MatrixError where error.status != nil {
                failure = error // our server answered: that one could not get us in, the next may
            }
        }
        if let failure { throw failure }
        return try join(roomIDOrAlias, query: [:])
    }

    private func join(_ roomIDOrAlias: String, query: [String: String]) throws -> String {
        guard let id = try request("POST", ["join", roomIDOrAlias], query: query)["room_id"]?.string else {
            throw MatrixError(.malformed, "joining \(VisibleText.escape(roomIDOrAlias)) returned no room id")
        }
        return id
    }

    /// The rooms the user has joined.
    public func joinedRooms() throws -> [String] {
        (try request("GET", ["joined_rooms"])["joined_rooms"]?.array ?? []).compactMap(\.string)
    }

    /// Creates a room and returns its id.
    /// - Parameter encrypted: switches end-to-end encryption (`m.megolm.v1.aes-sha2`) on from the start.
    public func createRoom(name: String, topic: String? = nil, isPublic: Bool, alias: String? = nil, encrypted: Bool = false) throws -> String {
        var body: [String: JSONValue] = ["name": .string(name), "preset": isPublic ? "public_chat" : "private_chat"]
        if let topic { body["topic"] = .string(topic) }
        if encrypted {
            body["initial_state"] = [["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]]
        }
        if let alias { body["room_alias_name"] = .string(alias) }
        guard let id = try request("POST", ["createRoom"], body: .object(body))["room_id"]?.string else {
            throw MatrixError(.malformed, "creating the room returned no room id")
        }
        return id
    }

    /// One state event's content, or nil when the room has none of that type.
    public func stateContent(room: String, type: String, stateKey: String = "", timeout: TimeInterval = 20) throws -> JSONValue? {
        do {
            return try request("GET", ["rooms", room, "state", type, stateKey], timeout: timeout)
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            return nil
        }
    }

    /// Sets a state event and returns its id.
    @discardableResult
    public func setState(room: String, type: String, stateKey: String = "", content: JSONValue) throws -> String {
        try request("PUT", ["rooms", room, "state", type, stateKey], body: content)["event_id"]?.string ?? ""
    }

    /// The room's whole current state.
    public func state(room: String) throws -> [JSONValue] {
        try request("GET", ["rooms", room, "state"], timeout: 60, limit: MatrixAnswerLimit.large).array ?? []
    }

    /// Joined members and their display names.
    public func joinedMembers(room: String) throws -> [String: String?] {
        let joined = try request("GET", ["rooms", room, "joined_members"], timeout: 60, limit: MatrixAnswerLimit.large)["joined"]?.object ?? [:]
        return joined.mapValues { $0["display_name"]?.string }
    }

    /// A page of the room's events.
    public struct Page: Sendable {
        /// Events in the direction asked for (newest first for `dir=b`).
        public var events: [JSONValue]
        /// Where the next page starts; nil at the room's start (or end).
        public var end: String?
        /// Member events for the senders on this page (lazy loading).
        public var state: [JSONValue]
    }

    /// Events before (`backwards`) or after a token; no token pages from the room's start forwards.
    public func messages(room: String, from token: String?, backwards: Bool, limit: Int, filter: JSONValue? = nil) throws -> Page {
        var query = ["dir": backwards ? "b" : "f", "limit": String(limit)]
        if let token { query["from"] = token }
        if let filter { query["filter"] = String(decoding: filter.serialized(), as: UTF8.self) }
        let answer = try request("GET", ["rooms", room, "messages"], query: query, timeout: 60, limit: MatrixAnswerLimit.large)
        return Page(events: answer["chunk"]?.array ?? [], end: answer["end"]?.string, state: answer["state"]?.array ?? [])
    }

    /// One event by id.
    public func event(room: String, id: String) throws -> JSONValue {
        try request("GET", ["rooms", room, "event", id])
    }

    /// Sends a message event; the same `transactionID` sends it once however often it is retried.
    /// - Parameter timestamp: the event's time, honoured for an application service only.
    public func send(room: String, type: String = "m.room.message", transactionID: String, content: JSONValue,
                     timestamp: Date? = nil, timeout: TimeInterval = 20) throws -> String {
        let query = timestamp.map { ["ts": String(Int64(($0.timeIntervalSince1970 * 1000).rounded()))] } ?? [:]
        guard let id = try request("PUT", ["rooms", room, "send", type, transactionID], query: query, body: content,
                                   timeout: timeout)["event_id"]?.string else {
            throw MatrixError(.malformed, "sending returned no event id")
        }
        return id
    }

    /// Redacts an event.
    public func redact(room: String, eventID: String, transactionID: String, reason: String? = nil) throws {
        try request("PUT", ["rooms", room, "redact", eventID, transactionID], body: .object(reason.map { ["reason": .string($0)] } ?? [:]))
    }

    /// Moves the fully-read marker and (unless `receipt` is false) the unthreaded read receipt
    /// (private when `privately`).
    public func setReadMarkers(room: String, eventID: String, receipt: Bool = true, privately: Bool, timeout: TimeInterval = 5) throws {
        var body: [String: JSONValue] = ["m.fully_read": .string(eventID)]
        if receipt { body[privately ? "m.read.private" : "m.read"] = .string(eventID) }
        try request("POST", ["rooms", room, "read_markers"], body: .object(body), timeout: timeout)
    }

    /// The event the fully-read marker is on, if set.
    public func fullyRead(room: String, userID: String) throws -> String? {
        do {
            return try request("GET", ["user", userID, "rooms", room, "account_data", "m.fully_read"])["event_id"]?.string
        } catch let error as MatrixError where error.errcode == "M_NOT_FOUND" {
            return nil
        }
    }

    /// Says the user is (or stopped) typing; the server forgets it after `timeout` seconds.
    public func setTyping(room: String, userID: String, typing: Bool, timeout: Int = 30) throws {
        var body: [String: JSONValue] = ["typing": .bool(typing)]
        if typing { body["timeout"] = .number(Double(timeout * 1000)) }
        try request("PUT", ["rooms", room, "typing", userID], body: .object(body), timeout: 5)
    }

    /// One long poll: what happened since `since` (the start when nil), waiting up to `wait` seconds;
    /// the whole answer must have come `margin` seconds after that, however it trickles.
    public func sync(since: String?, filter: JSONValue, wait: Int, fullState: Bool = false, margin: TimeInterval = 30) throws -> JSONValue {
        var query = ["timeout": String(wait * 1000), "filter": String(decoding: filter.serialized(), as: UTF8.self)]
        if let since { query["since"] = since }
        if fullState { query["full_state"] = "true" }
        return try request("GET", ["sync"], query: query, timeout: TimeInterval(wait) + margin, limit: MatrixAnswerLimit.large)
    }
}
