import Foundation
import ScrollEngine
import ThreadModel

/// Interactive verification in the client: Alt-V starts one, a request from another device
/// opens the panel over whatever is on screen, and the panel's keys answer it.
///
/// The protocol runs in the account's `MatrixVerifications` (fed by the account's sync); the
/// client shows one verification at a time as a `VerificationPanel`, refreshed each time the
/// account says its verifications changed. The reader's answers go out off the loop's thread
/// (each is a request to the server); the change they make comes back the same way.
///
/// Keys typed for something else must never answer: a request does not open the panel over a
/// draft being written (the status bar says so and Alt-V opens it), and for a second after the
/// panel appears or changes its `y`, `n` and Enter do nothing (Esc still cancels).
extension CommentClient {
    /// The verification on the panel, and the account it belongs to.
    struct ShownVerification {
        var account: String
        var id: String
        var panel: VerificationPanel
        /// When the panel appeared or last changed stage: answers wait `answerDelay` after it.
        var changedAt: ScrollInstant
    }

    /// Seconds after the panel appears or changes during which its answering keys do nothing.
    static let answerDelay = 1.0

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
            let prompt = prompt(for: now)
            if prompt.stage != shown.panel.prompt.stage { verification?.changedAt = clock.now }
            verification?.panel.prompt = prompt
            return
        }
        let waiting = all.last { !closedVerifications.contains($0.id) && $0.stage != .verified && $0.stage != .cancelled }
        guard let waiting else { return }
        let prompt = prompt(for: waiting)
        if !prompt.weAsked, current?.composer.draft.isEmpty == false {
            // Not over a draft being written: its next letters would answer.
            if verificationNotices.insert(waiting.id).inserted { say("\(prompt.subject) asks to verify · Alt-V answers") }
            return
        }
        show(waiting.id, of: account, prompt)
    }

    private func show(_ id: String, of account: String, _ prompt: VerificationPrompt) {
        verification = ShownVerification(account: account, id: id, panel: VerificationPanel(prompt: prompt), changedAt: clock.now)
    }

    /// The newest request from another side that is still waiting for the reader, of any account.
    private var waitingRequest: (account: String, verification: MatrixVerification)? {
        for account in accounts.keys.sorted() {
            guard let all = verifications(of: account)?.all else { continue }
            if let asked = all.last(where: { $0.stage == .incoming && !closedVerifications.contains($0.id) }) { return (account, asked) }
        }
        return nil
    }

    /// The prompt for `verification`, the other side named as the open threads know them.
    private func prompt(for verification: MatrixVerification) -> VerificationPrompt {
        var prompt = VerificationPrompt(verification)
        if !prompt.isOwnDevice {
            prompt.displayName = openOrder.lazy.compactMap { self.sessions[$0]?.comments.thread.user(id: verification.userID)?.name }.first
        }
        return prompt
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
        if command != .cancel, !shown.panel.prompt.stage.isOver, clock.now.seconds - shown.changedAt.seconds < Self.answerDelay {
            say("the panel just changed: read it, then answer")
            return []
        }
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
        for account in accounts.keys.sorted() where verification == nil { refreshVerification(account: account) }
    }

    /// Alt-V: in a room with a comment selected, verifies its author in that room (ourselves:
    /// our other devices, to-device); otherwise this device with our other devices. Said in the
    /// status bar when it cannot be (no account, no keys, no other device).
    func startVerification() {
        if let waiting = waitingRequest {
            // A request held back from the screen (a draft was being written): answer it first.
            return show(waiting.verification.id, of: waiting.account, prompt(for: waiting.verification))
        }
        let account: String
        var user: String?
        var room: String?
        switch place {
        case .thread(let key):
            guard let owner = key.account else { return say("verification is for Matrix rooms: this thread is not in one", error: true) }
            account = owner
            if let app = current, let position = app.feed.selected, let comment = app.comment(at: position) { user = comment.author }
            if case .room(_, let roomID) = key { room = roomID }
            if case .post(_, let roomID, _) = key { room = roomID }
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
        let inRoom = target == account ? nil : room
        say(target == account ? "asking your other devices to verify this one…" : "asking \(VisibleText.escape(target)) to verify…")
        Self.answer {
            do {
                // Another person in the room the comment is in, as Element does (encrypted there
                // when the room is); our own devices to-device.
                if let inRoom {
                    try verifications.request(userID: target, inRoom: inRoom)
                } else {
                    try verifications.request(userID: target, deviceID: nil)
                }
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
