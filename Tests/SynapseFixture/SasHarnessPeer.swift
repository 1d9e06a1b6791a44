import Foundation

/// A second client for interactive SAS verification that follows the spec by itself, with
/// vodozemac's Python bindings (`PythonVenv.nio`) for the SAS primitives only: its own device
/// (keys uploaded with vodozemac), the request/ready/start/accept/key/mac/done/cancel messages
/// to-device, its own info strings and commitment. matrix-nio cannot be the peer: it knows no
/// request/ready, sends its commitment in hex and offers only the old MAC method.
///
/// One run is one verification; it runs beside the test (`start`), which drives our side, and
/// reports the emoji indices and numbers it showed and how it ended.
public struct SasHarnessPeer: Sendable {
    public let homeserver: URL
    public let userID: String
    public let password: String

    public init(homeserver: URL, userID: String, password: String) {
        self.homeserver = homeserver
        self.userID = userID
        self.password = password
    }

    /// Who begins.
    public enum Role: String, Sendable {
        /// The harness sends the request to `partnerDevice` (and the start once ready).
        case request
        /// The harness waits for a request from the partner and answers it.
        case answer
    }

    /// What the harness's person says on seeing the emoji.
    public enum Decision: String, Sendable {
        case match
        case mismatch
        /// Never answers the request (for the other side's timeout).
        case ignoreRequest = "ignore_request"
    }

    /// A run under way.
    public final class Running: @unchecked Sendable {
        fileprivate let done = DispatchSemaphore(value: 0)
        fileprivate var outcome: Result<[String: Any], Error> = .failure(SynapseFixtureError("not finished"))
        fileprivate let readyFile: URL

        fileprivate init(readyFile: URL) { self.readyFile = readyFile }

        /// The harness's device id and Ed25519 key once its keys are up (polled, at most `seconds`).
        public func device(seconds: Double = 30) throws -> (id: String, ed25519: String) {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if let data = try? Data(contentsOf: readyFile),
                   let object = try? JSONSerialization.jsonObject(with: data) as? [String: String],
                   let id = object["device_id"], let key = object["ed25519"] { return (id, key) }
                if done.wait(timeout: .now() + 0.05) == .success {
                    done.signal()
                    _ = try result()
                }
            }
            throw SynapseFixtureError("SAS harness: no device after \(seconds) s")
        }

        /// What the run reported: `emoji` (indices), `decimals`, `outcome` (`done`, `cancelled`
        /// or `gave_up`), `cancel_code` (received), `sent_code` (sent), `verified` (our MACs checked).
        public func result() throws -> [String: Any] {
            done.wait()
            done.signal()
            return try outcome.get()
        }
    }

    /// Starts one verification with `partner` (their `partnerDevice` when the harness requests),
    /// giving up after `seconds`.
    public func start(role: Role, partner: String, partnerDevice: String? = nil, decision: Decision = .match,
                      seconds: Double = 30) throws -> Running {
        let python = try PythonVenv.nio.provision()
        let readyFile = FileManager.default.temporaryDirectory.appendingPathComponent("sas-harness-\(UUID().uuidString).json")
        let running = Running(readyFile: readyFile)
        var request: [String: Any] = ["homeserver": homeserver.absoluteString, "user": userID, "password": password,
                                      "role": role.rawValue, "partner_user": partner, "decision": decision.rawValue,
                                      "seconds": seconds, "ready_file": readyFile.path]
        if let partnerDevice { request["partner_device"] = partnerDevice }
        let sendable = SendableRequest(value: request)
        Thread.detachNewThread {
            running.outcome = Result {
                defer { try? FileManager.default.removeItem(at: readyFile) }
                guard let first = try PythonPeerRun(name: "SAS harness", python: python, script: Self.script)
                    .results(for: sendable.value).first else { throw SynapseFixtureError("SAS harness: no result") }
                return first
            }
            running.done.signal()
        }
        return running
    }

    private struct SendableRequest: @unchecked Sendable { let value: [String: Any] }
}
