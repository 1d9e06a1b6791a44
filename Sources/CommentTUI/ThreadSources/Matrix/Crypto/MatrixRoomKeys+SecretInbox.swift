import Foundation

/// The secret-sharing messages of a sync (`SecretInbox`), taken after the keys' lock is let go:
/// a secret checked against the keys the server publishes, a request answered over Olm.
extension MatrixRoomKeys {
    /// Takes the secret-sharing messages waiting; what went wrong, in words, into `problems`.
    /// Call unlocked: it waits on the network.
    func takeSecretMessages(problems: inout [String]) {
        for message in lock.withLock({ secretInbox.takeAll() }) {
            do {
                switch message {
                case .secret(let payload, let sender, let senderKey):
                    try takeSecret(payload, sender: sender, senderKey: senderKey)
                case .request(let content, let sender):
                    guard !lock.withLock({ secretInbox.wasAnswered(content) }) else { continue }
                    if try answerSecretRequest(content, sender: sender) { lock.withLock { secretInbox.noteAnswered(content) } }
                }
            } catch {
                problems.append("\(error)")
            }
        }
    }
}
