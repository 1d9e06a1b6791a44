import Foundation
import ThreadModel

/// Saves a big draft on a thread of its own: encoding and writing a 1 MB draft takes a few
/// hundred milliseconds, and the key a debounced save falls due at should cost what a key costs.
///
/// Saves keep their order: one made on the loop's thread first waits for any in flight
/// (`finish()`), so the file ends with the newest draft. A save in flight is a whole-file
/// replace, so a kill meanwhile leaves the draft before it, whole.
final class DraftWriter: @unchecked Sendable {
    /// Where the drafts go.
    let file: DraftFile
    /// The one thread saves run on, in order; tests suspend it to catch a save in flight.
    let queue = DispatchQueue(label: "comment-tui.draft-writer")
    private let lock = NSLock()
    /// The failure of the last save that ran off the loop, until it is taken (under `lock`).
    private var failure: Error?

    /// A writer for `file`.
    init(file: DraftFile) {
        self.file = file
    }

    /// Encodes and saves `draft` (marked as being sent as `sending`) off the caller's thread.
    func save(_ draft: ComposerDocument, sending: String?) {
        queue.async { [file] in
            let failed: Error?
            do {
                if draft.isEmpty { try file.remove() } else { try file.save(draft.encoded(sending: sending)) }
                failed = nil
            } catch {
                failed = error
            }
            self.lock.withLock { self.failure = failed }
        }
    }

    /// The failure of a save that ran off the loop and failed, taken (nil when none did).
    func takeFailure() -> Error? {
        lock.withLock {
            defer { failure = nil }
            return failure
        }
    }

    /// Waits for the saves in flight; then as `takeFailure()`.
    func finish() -> Error? {
        queue.sync {}
        return takeFailure()
    }
}
