import Foundation
import ThreadModel

/// Interactive verification in the client: Alt-V starts one, a request from another device
/// opens the panel over whatever is on screen, and the panel's keys answer it.
///
/// The protocol runs in the account's `MatrixVerifications` (fed by the account's sync); the
/// client shows one verification at a time as a `VerificationPanel`, refreshed each time the
/// account says its verifications changed. The reader's answers go out off the loop's thread
/// (each is a request to the server); the change they make comes back the same way.
extension CommentClient {
    /// The verification on the panel, and the account it belongs to.
    struct ShownVerification {
        var account: String
        var id: String
        var panel: VerificationPanel
    }

    /// The verifications of `account`'s device, when its keys are open here.
    private func verifications(of account: String) -> MatrixVerifications? {
        accounts[account]?.sync.roomKeys?.verifications
    }

    /// Shows what changed: the panel's verification as it is now, or, with no panel up, the
    /// newest one still going that the reader has not closed (a request from another device).
    func refreshVerification(account: String) {
        guard let verifications = verifications(of: account) else { return }
        let all = verifications.all
        if let shown = verification {
            guard shown.account == account, let now = all.first(where: { $0.id == shown.id }) else { return }
            verification?.panel.prompt = VerificationPrompt(now)
            return
        }
        let waiting = all.last { !closedVerifications.contains($0.id) && $0.stage != .verified && $0.stage != .cancelled }
        guard let waiting else { return }
        verification = ShownVerification(account: account, id: waiting.id, panel: VerificationPanel(prompt: VerificationPrompt(waiting)))
    }

    /// The panel's keys while it is up (it takes every key: nothing under it moves); nil with no panel.
    func handleVerificationInput(_ event: InputEvent) -> [AppCommand]? {
        guard let shown = verification else { return nil }
        guard case .key(let press) = event else { return [] }
        guard case .verification(let command)? = KeyMap.actions(for: press, in: [.verification]).first else {
            // Ctrl-C still quits; any other key, once it is over, closes it.
            if KeyMap.actions(for: press, in: [.feed]).first == .quit { return [.quit] }
            if shown.panel.prompt.stage.isOver { closeVerification() }
            return []
        }
        let effect = shown.panel.perform(command)
        guard let verifications = verifications(of: shown.account) else {
            closeVerification()
            return []
        }
        let id = shown.id
        switch effect {
        case .accept: Self.answer { verifications.accept(id) }
        case .confirm: Self.answer { verifications.confirm(id) }
        case .mismatch: Self.answer { verifications.mismatch(id) }
        case .cancel: Self.answer { verifications.cancel(id) }
        case .close: closeVerification()
        case .hint(let text): say(text)
        }
        return []
    }

    /// Sends an answer off the loop's thread.
    private static func answer(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global(qos: .userInitiated).async(execute: work)
    }

    /// Takes the panel away for good, and shows the next verification waiting, if any.
    private func closeVerification() {
        guard let shown = verification else { return }
        closedVerifications.insert(shown.id)
        verification = nil
        refreshVerification(account: shown.account)
    }

    /// Alt-V: in a room with a comment selected, verifies its author (ourselves: our other
    /// devices); otherwise this device with our other devices. Said in the status bar when it
    /// cannot be (no account, no keys, no other device).
    func startVerification() {
        let account: String
        var user: String?
        switch place {
        case .thread(let key):
            guard let owner = key.account else { return say("verification is for Matrix rooms: this thread is not in one", error: true) }
            account = owner
            if let app = current, let position = app.feed.selected, let comment = app.comment(at: position) { user = comment.author }
        case .home:
            guard let only = home?.selected?.key.account ?? accounts.keys.sorted().first else {
                return say("no Matrix account is logged in: nothing to verify", error: true)
            }
            account = only
        }
        guard let verifications = verifications(of: account), let mailbox else {
            return say("this device has no encryption keys open: nothing to verify with", error: true)
        }
        let target = user ?? account
        say(target == account ? "asking your other devices to verify this one…" : "asking \(VisibleText.escape(target)) to verify…")
        Self.answer {
            do {
                try verifications.request(userID: target, deviceID: nil)
            } catch {
                mailbox.post(.message("not verifying: " + VisibleText.escape("\(error)"), isError: true))
            }
        }
    }

    /// Draws the panel over a frame; the caret hides under it.
    func drawVerification(into frame: inout Frame) {
        guard let shown = verification else { return }
        VerificationPanelView(panel: shown.panel).draw(into: &frame.buffer)
        if settings.colorCount == 0 { frame.buffer.restyleAll(Theme.monochrome) }
        frame.cursor = nil
        frame.scroll = nil
    }
}
