/// The verification panel over the screen: one verification at a time (an answer to a request,
/// or one the reader started), its stage and the emoji to compare, and what its keys ask for.
///
/// Its keys (`KeyContext.verification`): `y` they match (or accept a request), `n` they differ
/// (or decline), Enter accepts a request, Esc cancels; once it is over, any key closes it.
/// Enter never confirms a comparison: matching emoji are said with `y`, on purpose.
struct VerificationPanel: Equatable {
    /// What a key asks the protocol (or the client) to do.
    enum Effect: Equatable {
        /// Accept the other side's request.
        case accept
        /// The emoji match: send our MAC.
        case confirm
        /// The emoji differ: cancel with `m.mismatched_sas`.
        case mismatch
        /// Stop here (decline a request, cancel with `m.user`).
        case cancel
        /// The verification is over and the reader has read how: take the panel away.
        case close
        /// A key that does nothing at this stage, and the hint the status line gives instead.
        case hint(String)
    }

    /// The verification the panel shows; the protocol replaces it as it moves.
    var prompt: VerificationPrompt

    /// What `command` does at the prompt's stage.
    func perform(_ command: VerificationCommand) -> Effect {
        if prompt.stage.isOver { return .close }
        switch (prompt.stage, command) {
        case (.asked, .yes), (.asked, .proceed): return .accept
        case (.asked, .no), (_, .cancel): return .cancel
        case (.compare, .yes): return .confirm
        case (.compare, .no): return .mismatch
        case (.compare, .proceed): return .hint("press y if the emoji match, n if they differ")
        case (.waiting, _), (.confirmed, _): return .hint("waiting for \(prompt.otherSide) · Esc cancels")
        case (.verified, _), (.cancelled, _): return .close
        }
    }
}

/// A key of the verification panel (the key map names them; the panel decides per stage).
enum VerificationCommand: Hashable {
    /// `y`: yes, they match; accept.
    case yes
    /// `n`: no, they differ; decline.
    case no
    /// Enter: go on (accepts a request; never confirms emoji).
    case proceed
    /// Esc: cancel.
    case cancel
}
