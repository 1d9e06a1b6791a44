import ThreadModel

/// One interactive SAS verification (`m.sas.v1`, `curve25519-hkdf-sha256`,
/// `hkdf-hmac-sha256.v2`) between one of our devices and another device, ours or another
/// user's, as a pure state machine: it is fed the messages that arrive, a person's answers and
/// the time, and returns the messages to send. It never sends, reads a clock or stores; the
/// client does that, to-device or in a room (`Transport`).
///
/// Both roles: we request (`requesting`) or answer a request (`answering`), and either side
/// may send the start. Timeouts as the spec says: 10 minutes for the whole verification, and an
/// unanswered incoming request is dropped 10 minutes after its timestamp or 2 minutes after it
/// arrived; each cancels with `m.timeout`.
public struct SasVerification: Sendable {
    /// Where the messages go: the flow id is the `transaction_id` (to-device) or the request's
    /// event id (in a room, where the others relate to it with `m.reference`).
    public enum Transport: Sendable, Equatable {
        case toDevice(transactionID: String)
        case room(roomID: String, requestEventID: String)

        public var flowID: String {
            switch self {
            case .toDevice(let id): id
            case .room(_, let id): id
            }
        }
    }

    /// Where the verification stands.
    public enum Phase: Sendable, Equatable {
        /// We sent a request; waiting for a device to be ready.
        case requested
        /// They sent a request; waiting for our person to accept (`accept`).
        case incomingRequest
        /// Both ready; waiting for a start (we send it when we requested).
        case ready
        /// They started without a request (deprecated, but handled); waiting for `accept`.
        case incomingStart
        /// We sent the start; waiting for their accept.
        case started
        /// We accepted their start; waiting for their key.
        case accepted
        /// We sent our key as the starter; waiting for theirs.
        case keySent
        /// The short authentication string is there to compare (`confirm` or `mismatch`).
        case comparing
        /// We said it matches and sent our MAC; waiting for theirs.
        case confirmed
        /// Their MAC checked and we sent done; waiting for theirs.
        case waitingForDone
        /// Verified: `verifiedKeys` holds their keys that checked.
        case done
        case cancelled(Cancellation)
    }

    /// Who cancelled and why.
    public struct Cancellation: Sendable, Equatable {
        public let code: VerificationCancelCode
        /// The reason they gave (text from the network: show it escaped), or ours.
        public let reason: String
        public let byUs: Bool
    }

    /// One message to send: an event type and its content, the flow id already in it.
    public struct Outgoing: Sendable, Equatable {
        public let type: String
        public let content: JSONValue

        public init(type: String, content: JSONValue) {
            self.type = type
            self.content = content
        }
    }

    public let transport: Transport
    public let ourUserID: String
    public let ourDeviceID: String
    public let theirUserID: String
    /// Their device: known from the start when verifying a device, learnt from the ready (or
    /// start) when a user was asked.
    public internal(set) var theirDeviceID: String?
    public internal(set) var phase: Phase
    /// Whether we sent the request (else they did, or they started without one).
    public let weRequested: Bool
    /// The keys we ask them to trust, key id (`ed25519:<device>`, `ed25519:<master>`) → key.
    let ourKeys: [String: String]
    /// Their device id → Ed25519 key, for the devices that may answer; and their master key.
    var theirDevices: [String: String]
    let theirMasterKey: String?
    /// Their keys whose MACs checked, key id → key (set at `done`).
    public internal(set) var verifiedKeys: [String: String] = [:]
    /// The short authentication string, once both keys are known.
    public internal(set) var shortAuthenticationString: ShortAuthenticationString?
    /// The SAS forms both sides agreed to show (`emoji`, `decimal`).
    public internal(set) var agreedForms: [String] = []

    let ephemeral: Curve25519KeyPair
    var established: EstablishedSas?
    /// Whether we sent the start that won (else they did).
    var weStarted = false
    /// The start content the commitment covers, and the accept's commitment (as starter).
    var startContent: JSONValue?
    var commitment: String?
    var theirKey: String?
    /// Their MAC when it came before our person confirmed, checked at `confirm`.
    var pendingMac: (keys: String, macs: [String: String])?
    var theirDone = false
    /// When the verification began and when an unanswered incoming request lapses (ms since 1970).
    let startedAt: Int64
    var requestLapsesAt: Int64?

    /// The whole verification's limit, and how long an incoming request waits for an answer.
    public static let lifetimeMilliseconds: Int64 = 10 * 60 * 1000
    public static let promptMilliseconds: Int64 = 2 * 60 * 1000
    /// A request's timestamp may be this far in the future before it is ignored.
    public static let futureToleranceMilliseconds: Int64 = 5 * 60 * 1000

    init(transport: Transport, ourUserID: String, ourDeviceID: String, theirUserID: String, theirDeviceID: String?,
         phase: Phase, weRequested: Bool, ourKeys: [String: String], theirDevices: [String: String], theirMasterKey: String?,
         nowMilliseconds: Int64, random: inout some RandomSource) throws {
        self.transport = transport
        self.ourUserID = ourUserID
        self.ourDeviceID = ourDeviceID
        self.theirUserID = theirUserID
        self.theirDeviceID = theirDeviceID
        self.phase = phase
        self.weRequested = weRequested
        self.ourKeys = ourKeys
        self.theirDevices = theirDevices
        self.theirMasterKey = theirMasterKey
        startedAt = nowMilliseconds
        ephemeral = try Curve25519KeyPair(random: &random)
    }

    /// A verification we request, with the request to send (to the device, or to all of them
    /// when `theirDeviceID` is nil and the client fans it out; in a room, the client sends the
    /// request event first and makes this with its event id, dropping the returned message).
    /// - Parameters:
    ///   - ourKeys: the keys we ask them to trust (our device's Ed25519 key; our master key).
    ///   - theirDevices: their devices that may answer, id → Ed25519 key.
    ///   - theirMasterKey: their master key (unpadded base64), to check when they MAC it.
    public static func requesting(transport: Transport, ourUserID: String, ourDeviceID: String, theirUserID: String,
                                  theirDeviceID: String?, ourKeys: [String: String], theirDevices: [String: String],
                                  theirMasterKey: String?, nowMilliseconds: Int64,
                                  random: inout some RandomSource) throws -> (SasVerification, Outgoing) {
        let verification = try SasVerification(transport: transport, ourUserID: ourUserID, ourDeviceID: ourDeviceID,
                                               theirUserID: theirUserID, theirDeviceID: theirDeviceID, phase: .requested,
                                               weRequested: true, ourKeys: ourKeys, theirDevices: theirDevices,
                                               theirMasterKey: theirMasterKey, nowMilliseconds: nowMilliseconds, random: &random)
        let content: JSONValue = ["from_device": .string(ourDeviceID), "methods": [.string(VerificationMessage.sasMethod)],
                                  "timestamp": .number(Double(nowMilliseconds))]
        if case .room = transport {
            return (verification, roomRequest(ourUserID: ourUserID, ourDeviceID: ourDeviceID, theirUserID: theirUserID))
        }
        return (verification, verification.outgoing("m.key.verification.request", content))
    }

    /// The request to send into a room (an `m.room.message`); its event id becomes the flow id
    /// of the verification made with `requesting(transport: .room(...))`.
    public static func roomRequest(ourUserID: String, ourDeviceID: String, theirUserID: String) -> Outgoing {
        Outgoing(type: "m.room.message", content: [
            "msgtype": "m.key.verification.request", "from_device": .string(ourDeviceID),
            "methods": [.string(VerificationMessage.sasMethod)], "to": .string(theirUserID),
            "body": .string("\(ourUserID) is asking to verify your key, but your client does not support verification."),
        ])
    }

    /// A verification they asked for (`message` a request or a start without one), or nil when
    /// it is no message to answer: not a request or start, or a request too old or too far in
    /// the future (ignored, as the spec says). A request waits for `accept`.
    public static func answering(_ message: VerificationMessage, transport: Transport, ourUserID: String, ourDeviceID: String,
                                 theirUserID: String, ourKeys: [String: String], theirDevices: [String: String],
                                 theirMasterKey: String?, nowMilliseconds: Int64,
                                 random: inout some RandomSource) throws -> SasVerification? {
        switch message {
        case .request(let fromDevice, _, let timestamp):
            let sent = timestamp ?? nowMilliseconds
            guard nowMilliseconds - sent < lifetimeMilliseconds, sent - nowMilliseconds < futureToleranceMilliseconds else { return nil }
            var verification = try SasVerification(transport: transport, ourUserID: ourUserID, ourDeviceID: ourDeviceID,
                                                   theirUserID: theirUserID, theirDeviceID: fromDevice, phase: .incomingRequest,
                                                   weRequested: false, ourKeys: ourKeys, theirDevices: theirDevices,
                                                   theirMasterKey: theirMasterKey, nowMilliseconds: nowMilliseconds, random: &random)
            verification.requestLapsesAt = min(sent + lifetimeMilliseconds, nowMilliseconds + promptMilliseconds)
            return verification
        case .start(let start):
            var verification = try SasVerification(transport: transport, ourUserID: ourUserID, ourDeviceID: ourDeviceID,
                                                   theirUserID: theirUserID, theirDeviceID: start.fromDevice, phase: .incomingStart,
                                                   weRequested: false, ourKeys: ourKeys, theirDevices: theirDevices,
                                                   theirMasterKey: theirMasterKey, nowMilliseconds: nowMilliseconds, random: &random)
            verification.startContent = start.content
            verification.requestLapsesAt = nowMilliseconds + promptMilliseconds
            return verification
        default:
            return nil
        }
    }

    /// Whether it ended (verified or cancelled).
    public var isFinished: Bool {
        switch phase {
        case .done, .cancelled: true
        default: false
        }
    }

    /// When it times out if nothing more happens (ms since 1970), while it runs.
    public var deadline: Int64? {
        guard !isFinished else { return nil }
        let whole = startedAt + Self.lifetimeMilliseconds
        if phase == .incomingRequest || phase == .incomingStart, let lapse = requestLapsesAt { return min(whole, lapse) }
        return whole
    }

    /// Checks the time: past the deadline it cancels with `m.timeout` and returns the cancel.
    public mutating func tick(nowMilliseconds: Int64) -> [Outgoing] {
        guard let deadline, nowMilliseconds >= deadline else { return [] }
        return cancelling(.timeout)
    }

    /// Our person cancels (or declines a request): `m.user`.
    public mutating func cancel() -> [Outgoing] {
        guard !isFinished else { return [] }
        return cancelling(.user)
    }

    /// Our person says the emoji (or numbers) differ: `m.mismatched_sas`.
    public mutating func mismatch() -> [Outgoing] {
        guard !isFinished else { return [] }
        return cancelling(.mismatchedSas)
    }

    /// Ends it, cancelled by us with `code`, and returns the cancel to send.
    mutating func cancelling(_ code: VerificationCancelCode) -> [Outgoing] { cancelling(code, reason: code.words) }

    /// Our side ends it with `code` and `reason` (the client's own refusals: their keys could
    /// not be read, too many requests at once); the cancel to send.
    public mutating func refuse(_ code: VerificationCancelCode, reason: String) -> [Outgoing] {
        guard !isFinished else { return [] }
        return cancelling(code, reason: reason)
    }

    /// The cancel names our device (a field the spec does not forbid): the other side, having
    /// asked several devices, can tell our late decline from the answering device's cancel.
    private mutating func cancelling(_ code: VerificationCancelCode, reason: String) -> [Outgoing] {
        phase = .cancelled(Cancellation(code: code, reason: reason, byUs: true))
        return [outgoing("m.key.verification.cancel", ["code": .string(code.code), "reason": .string(reason),
                                                       "from_device": .string(ourDeviceID)])]
    }

    /// `content` with the flow id put in as the transport wants it.
    func outgoing(_ type: String, _ content: JSONValue) -> Outgoing {
        var members = content.object ?? [:]
        switch transport {
        case .toDevice(let id): members["transaction_id"] = .string(id)
        case .room(_, let eventID): members["m.relates_to"] = ["rel_type": "m.reference", "event_id": .string(eventID)]
        }
        return Outgoing(type: type, content: .object(members))
    }

    /// Our ephemeral public key, unpadded base64.
    var ourPublicKey: String { UnpaddedBase64.encode(ephemeral.publicKey) }

    /// Checks what must always hold; traps in tests when broken.
    func _checkInvariants() {
        if shortAuthenticationString != nil { precondition(established != nil, "a SAS without a shared secret") }
        if phase == .done { precondition(!verifiedKeys.isEmpty, "done without a checked key") }
        if weStarted { precondition(startContent != nil, "we started without keeping the start") }
    }
}
