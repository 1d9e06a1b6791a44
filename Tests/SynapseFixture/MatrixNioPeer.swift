import Foundation

/// Another Matrix client, not ours: matrix-nio (PyPI, `PythonVenv.nio`) logged in as a user of
/// the test's Synapse, doing what a person does in Element (posting, replying in a thread,
/// reacting) and reading back what comment-tui sent, as that client sees it.
///
/// Each `run` is one Python process: it logs in (a device of its own), carries out the steps in
/// order and prints their results as JSON. Loopback only; a step that fails says why.
public struct MatrixNioPeer: Sendable {
    public let homeserver: URL
    public let userID: String
    public let password: String
    /// Where the peer keeps its device (login, Olm account and sessions) between runs; nil: a
    /// new device each run.
    public let storeFolder: String?

    public init(homeserver: URL, userID: String, password: String, storeFolder: String? = nil) {
        self.homeserver = homeserver
        self.userID = userID
        self.password = password
        self.storeFolder = storeFolder
    }

    /// One thing for the peer to do.
    public enum Step {
        /// Sends an event (`room_send`); its result holds `event_id`.
        case send(room: String, type: String = "m.room.message", content: [String: Any])
        /// Reads one event (`room_get_event`); its result holds `event`, the event as served.
        case event(room: String, id: String)
        /// Uploads the peer's device and one-time keys (vodozemac's, through nio's e2e support);
        /// its result holds `device_id` and `ed25519`, the device's fingerprint key.
        case uploadKeys
        /// Creates a private room with encryption on (its session rotated after
        /// `rotationMessages` messages when given), inviting `invite`; its result holds `room_id`.
        case createEncryptedRoom(invite: [String], rotationMessages: Int? = nil)
        /// Syncs (from the start), then queries and uploads keys as nio needs, and, as nio's sync
        /// loop does, starts new Olm sessions with devices whose messages it could not open
        /// (claiming their keys, sending each an `m.dummy`) and sends what it queued.
        case sync
        /// Forgets every Olm session nio has with `user`'s devices, in memory and in its store (as
        /// a client that lost them); its result holds `forgotten`, how many.
        case forgetOlmSessions(user: String)
        /// Sends a text message in an encrypted room (sharing the room key with every device,
        /// verified or not); its result holds `event_id`.
        case sendEncrypted(room: String, body: String)
        /// Sends a message of any content in an encrypted room (an edit, a reply, a thread's
        /// message); its result holds `event_id`.
        case sendEncryptedContent(room: String, content: [String: Any])
        /// Sends a text message in a new Megolm session shared with no one (as when the key is
        /// slow to come); its result holds `event_id`, `session_id` and `session_key` (at index 0).
        case sendKeepingTheKey(room: String, body: String)
        /// Shares a session's key (`m.room_key` over Olm) with every device of the room's members.
        case shareKey(room: String, sessionID: String, sessionKey: String)
        /// Syncs (taking the room keys sent to it), then reads the room's newest `limit` events,
        /// oldest first, decrypted where it can; its result holds `messages`: each with
        /// `event_id`, `type`, `body` (when a message) and `decrypted` (whether it was encrypted
        /// and nio opened it), and `undecrypted`, how many it could not open.
        case messages(room: String, limit: Int)
        /// Syncs (taking the room keys sent to it, in a room it has left too), then lists the
        /// Megolm sessions it holds for `room`; its result holds `sessions`: each sharing
        /// device's Curve25519 key to the ids of the sessions it shared.
        case roomKeys(room: String)
    }

    /// Carries out `steps` in one login; returns each step's result.
    public func run(_ steps: [Step]) throws -> [[String: Any]] {
        let python = try PythonVenv.nio.provision()
        let encoded: [[String: Any]] = steps.map { step in
            switch step {
            case .send(let room, let type, let content): ["do": "send", "room": room, "type": type, "content": content]
            case .event(let room, let id): ["do": "event", "room": room, "event_id": id]
            case .uploadKeys: ["do": "upload_keys"]
            case .createEncryptedRoom(let invite, let rotation):
                ["do": "create_encrypted_room", "invite": invite, "rotation_msgs": rotation.map { $0 as Any } ?? NSNull()]
            case .sync: ["do": "sync"]
            case .forgetOlmSessions(let user): ["do": "forget_olm_sessions", "user": user]
            case .sendEncrypted(let room, let body): ["do": "send_encrypted", "room": room, "content": ["msgtype": "m.text", "body": body]]
            case .sendEncryptedContent(let room, let content): ["do": "send_encrypted", "room": room, "content": content]
            case .sendKeepingTheKey(let room, let body): ["do": "send_keeping_the_key", "room": room, "body": body]
            case .shareKey(let room, let sessionID, let sessionKey):
                ["do": "share_key", "room": room, "session_id": sessionID, "session_key": sessionKey]
            case .messages(let room, let limit): ["do": "messages", "room": room, "limit": limit]
            case .roomKeys(let room): ["do": "room_keys", "room": room]
            }
        }
        var request: [String: Any] = ["homeserver": homeserver.absoluteString, "user": userID, "password": password, "steps": encoded]
        if let storeFolder { request["store"] = storeFolder }
        return try PythonPeerRun(name: "matrix-nio peer", python: python, script: Self.script).results(for: request)
    }

    /// Sends one event; returns its id.
    @discardableResult
    public func send(room: String, type: String = "m.room.message", content: [String: Any]) throws -> String {
        guard let id = try run([.send(room: room, type: type, content: content)]).first?["event_id"] as? String else {
            throw SynapseFixtureError("matrix-nio peer: no event id")
        }
        return id
    }

    /// One event as the peer reads it from the server.
    public func event(room: String, id: String) throws -> [String: Any] {
        guard let event = try run([.event(room: room, id: id)]).first?["event"] as? [String: Any] else {
            throw SynapseFixtureError("matrix-nio peer: no event \(id)")
        }
        return event
    }

    /// The peer's program: reads the request on stdin, prints one result per step.
    static let script = #"""
    import asyncio, json, os, sys, tempfile
    from uuid import uuid4
    from nio import (AsyncClient, AsyncClientConfig, KeysUploadResponse, LoginResponse, MegolmEvent, RoomMessagesResponse,
                     RoomSendResponse, RoomGetEventResponse, RoomCreateResponse, RoomPreset, SyncResponse, ToDeviceResponse)
    from nio.api import Api
    from nio.event_builders import ToDeviceMessage

    def uncached():
        # Synapse answers a sync it was asked within two minutes from its cache; a filter of
        # its own (excluding a presence type no one sends) makes each one fresh.
        return {"presence": {"not_types": ["org.example.fresh." + uuid4().hex]}}

    async def main():
        request = json.loads(sys.stdin.read())
        store = request.get("store") or tempfile.mkdtemp(prefix="nio-peer-")
        os.makedirs(store, mode=0o700, exist_ok=True)
        # Encryption only when a step needs it (or the device is kept): with it, nio sends only
        # into rooms it has synced.
        e2e = "store" in request or any(step["do"] in ("upload_keys", "sync", "send_encrypted", "send_keeping_the_key", "share_key", "messages",
                                                   "forget_olm_sessions", "room_keys") for step in request["steps"])
        config = AsyncClientConfig(encryption_enabled=e2e, store_sync_tokens=False)
        client = AsyncClient(request["homeserver"], request["user"], store_path=store, config=config)
        results = []
        saved = os.path.join(store, "login.json")
        try:
            if "store" in request and os.path.exists(saved):
                with open(saved) as f:
                    login = json.load(f)
                client.restore_login(request["user"], login["device_id"], login["access_token"])
            else:
                login = await client.login(request["password"], device_name="nio peer")
                if not isinstance(login, LoginResponse):
                    results.append({"error": "login: " + str(login)})
                    return
                if "store" in request:
                    with open(os.open(saved, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
                        json.dump({"device_id": client.device_id, "access_token": client.access_token}, f)
            for step in request["steps"]:
                if step["do"] == "send":
                    sent = await client.room_send(step["room"], step["type"], step["content"])
                    ok = isinstance(sent, RoomSendResponse)
                    results.append({"event_id": sent.event_id} if ok else {"error": "send: " + str(sent)})
                elif step["do"] == "event":
                    got = await client.room_get_event(step["room"], step["event_id"])
                    ok = isinstance(got, RoomGetEventResponse)
                    results.append({"event": got.event.source} if ok else {"error": "event: " + str(got)})
                elif step["do"] == "create_encrypted_room":
                    encryption = {"type": "m.room.encryption", "state_key": "", "content": {"algorithm": "m.megolm.v1.aes-sha2"}}
                    if step.get("rotation_msgs") is not None:
                        encryption["content"]["rotation_period_msgs"] = step["rotation_msgs"]
                    made = await client.room_create(preset=RoomPreset.private_chat, invite=step["invite"], initial_state=[encryption])
                    ok = isinstance(made, RoomCreateResponse)
                    results.append({"room_id": made.room_id} if ok else {"error": "create: " + str(made)})
                elif step["do"] == "sync":
                    synced = await client.sync(timeout=0, full_state=True, sync_filter=uncached())
                    if client.should_query_keys:
                        await client.keys_query()
                    if client.should_upload_keys:
                        await client.keys_upload()
                    if client.should_claim_keys:
                        await client.keys_claim(client.get_users_for_key_claiming())
                    await client.send_to_device_messages()
                    results.append({} if isinstance(synced, SyncResponse) else {"error": "sync: " + str(synced)})
                elif step["do"] == "forget_olm_sessions":
                    from nio.store.models import OlmSessions
                    forgotten = 0
                    for device in client.olm.device_store.active_user_devices(step["user"]):
                        forgotten += len(client.olm.session_store._entries.pop(device.curve25519, []))
                        with client.store.database.bind_ctx(client.store.models):
                            OlmSessions.delete().where(OlmSessions.sender_key == device.curve25519).execute()
                    results.append({"forgotten": forgotten})
                elif step["do"] == "send_encrypted":
                    sent = await client.room_send(step["room"], "m.room.message", step["content"], ignore_unverified_devices=True)
                    ok = isinstance(sent, RoomSendResponse)
                    results.append({"event_id": sent.event_id} if ok else {"error": "send: " + str(sent)})
                elif step["do"] == "send_keeping_the_key":
                    room = step["room"]
                    client.olm.create_outbound_group_session(room)
                    session = client.olm.outbound_group_sessions[room]
                    key = session.session_key
                    # Marked shared, so nio encrypts with it without sending its key to anyone.
                    session.shared = True
                    content = client.olm.group_encrypt(room, {"type": "m.room.message", "content": {"msgtype": "m.text", "body": step["body"]}})
                    method, path, data = Api.room_send(client.access_token, room, "m.room.encrypted", content, uuid4())
                    sent = await client._send(RoomSendResponse, method, path, data, (room,))
                    ok = isinstance(sent, RoomSendResponse)
                    results.append({"event_id": sent.event_id, "session_id": session.id, "session_key": key}
                                   if ok else {"error": "send: " + str(sent)})
                elif step["do"] == "share_key":
                    room = step["room"]
                    missing = client.get_missing_sessions(room)
                    if missing:
                        await client.keys_claim(missing)
                    key = {"algorithm": "m.megolm.v1.aes-sha2", "room_id": room, "session_id": step["session_id"], "session_key": step["session_key"]}
                    failures = []
                    for user in client.rooms[room].users:
                        for device in client.olm.device_store.active_user_devices(user):
                            olm = client.olm.session_store.get(device.curve25519)
                            if device.id == client.device_id or olm is None:
                                continue
                            message = client.olm._olm_encrypt(olm, device, "m.room_key", key)
                            shared = await client.to_device(ToDeviceMessage("m.room.encrypted", user, device.id, message))
                            if not isinstance(shared, ToDeviceResponse):
                                failures.append(str(shared))
                    results.append({"error": "share: " + "; ".join(failures)} if failures else {})
                elif step["do"] == "messages":
                    synced = await client.sync(timeout=0, full_state=True, sync_filter=uncached())
                    # A second sync: keys sent while the first was answered come with it.
                    if isinstance(synced, SyncResponse):
                        synced = await client.sync(timeout=0, since=synced.next_batch, sync_filter=uncached())
                    if not isinstance(synced, SyncResponse):
                        results.append({"error": "sync: " + str(synced)})
                        continue
                    read = await client.room_messages(step["room"], start=synced.next_batch, limit=step["limit"])
                    if not isinstance(read, RoomMessagesResponse):
                        results.append({"error": "messages: " + str(read)})
                        continue
                    messages = []
                    for event in reversed(read.chunk):
                        source = event.source
                        messages.append({"event_id": source.get("event_id"), "type": source.get("type"),
                                         "body": getattr(event, "body", None), "decrypted": bool(getattr(event, "decrypted", False)),
                                         "undecrypted": isinstance(event, MegolmEvent)})
                    results.append({"messages": messages, "undecrypted": sum(1 for m in messages if m["undecrypted"])})
                elif step["do"] == "room_keys":
                    synced = await client.sync(timeout=0, full_state=True)
                    if isinstance(synced, SyncResponse):
                        synced = await client.sync(timeout=0, since=synced.next_batch)
                    if not isinstance(synced, SyncResponse):
                        results.append({"error": "sync: " + str(synced)})
                        continue
                    held = client.olm.inbound_group_store[step["room"]]
                    results.append({"sessions": {sender: sorted(sessions.keys()) for sender, sessions in held.items()}})
                elif step["do"] == "upload_keys":
                    uploaded = await client.keys_upload()
                    ok = isinstance(uploaded, KeysUploadResponse)
                    results.append({"device_id": client.device_id, "ed25519": client.olm.account.identity_keys["ed25519"]}
                                   if ok else {"error": "keys upload: " + str(uploaded)})
        finally:
            await client.close()
            print(json.dumps(results))

    asyncio.run(main())
    """#
}
