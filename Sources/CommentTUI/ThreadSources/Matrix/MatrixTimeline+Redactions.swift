import Foundation

extension MatrixTimeline {
    /// Whether a change waiting for its comment is a redaction (kept with no sender and a time
    /// past any edit's), not an edit whose new text merely reads "(deleted)".
    func isRedaction(_ waiting: (body: String, at: Date, sender: String)?) -> Bool {
        guard let waiting else { return false }
        return waiting.sender.isEmpty && waiting.at == .distantFuture
    }
}
