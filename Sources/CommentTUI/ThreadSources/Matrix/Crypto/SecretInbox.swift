import Foundation
import MatrixCrypto
import ThreadModel

/// The secret-sharing messages a sync brought (`m.secret.send` opened, `m.secret.request` as it
/// came), kept under the keys' lock and taken after it is let go: checking or answering them asks
/// the server, which rooms must not wait on. `m.secret.request` is not encrypted, so a server
/// can replay it: each request (device and request id) is answered once, the ids answered
/// remembered up to a bound, and a sync's requests beyond a bound dropped.
struct SecretInbox {
    /// One message to take.
    enum Message {
        /// An `m.secret.send` that came over Olm from the device of Curve25519 key `senderKey`.
        case secret(OlmPayload, sender: String, senderKey: String)
        /// An `m.secret.request` (its content) from `sender`.
        case request(JSONValue?, sender: String)
    }

    /// At most so many requests wait at a time (a device of ours asks for four secrets).
    static let mostRequests = 64
    /// So many requests answered are remembered, the oldest forgotten first.
    static let answersRemembered = 256

    private(set) var waiting: [Message] = []
    /// `requesting device|request id` of the requests answered, oldest first.
    private var answered: [String] = []

    /// Adds `message`, unless it is a request answered already, waiting already, or one too many.
    mutating func add(_ message: Message) {
        if case .request(let content, _) = message {
            guard let id = Self.requestKey(content) else { return waiting.append(message) }
            let requests = waiting.compactMap { if case .request(let other, _) = $0 { Self.requestKey(other) } else { nil } }
            guard requests.count < Self.mostRequests, !requests.contains(id), !answered.contains(id) else { return }
        }
        waiting.append(message)
    }

    /// The messages waiting, in the order they came; none wait after.
    mutating func takeAll() -> [Message] {
        defer { waiting = [] }
        return waiting
    }

    /// Whether the request of `content` was answered already.
    func wasAnswered(_ content: JSONValue?) -> Bool {
        Self.requestKey(content).map(answered.contains) ?? false
    }

    /// Notes the request of `content` as answered.
    mutating func noteAnswered(_ content: JSONValue?) {
        guard let id = Self.requestKey(content), !answered.contains(id) else { return }
        answered.append(id)
        if answered.count > Self.answersRemembered { answered.removeFirst(answered.count - Self.answersRemembered) }
    }

    /// What makes a request one: the asking device and its request id.
    private static func requestKey(_ content: JSONValue?) -> String? {
        guard let device = content?["requesting_device_id"]?.string, let id = content?["request_id"]?.string else { return nil }
        return "\(device.count):\(device)|\(id)"
    }
}
