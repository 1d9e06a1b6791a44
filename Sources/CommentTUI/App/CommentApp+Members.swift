import ThreadModel

/// F4: a page of the thread's members, each with their trust as a sender (the marks of their
/// comments' headers, in words) and their devices', cross-signed by their owner or not. Only
/// where the source can say (an encrypted room); names, handles and device names are hostile
/// text, shown with their controls as placeholders.
extension CommentApp {
    /// Shows the members' page, or closes it when it shows.
    func toggleMembers() {
        if case .members? = overlays.page?.content { return overlays.closePage() }
        guard source.isEndToEndEncrypted else { return apply(.message("members' devices and trust are shown in encrypted rooms")) }
        var lines: [KeyHelp] = []
        for user in comments.thread.users.sorted(by: { ($0.id == me.id ? 0 : 1, $0.name) < ($1.id == me.id ? 0 : 1, $1.name) }) {
            let name = Self.visible(user.name) + (user.id == me.id ? " (you)" : "")
            lines.append(KeyHelp(name, Self.words(for: source.senderTrust(user.id))))
            for device in source.memberDevices(user.id) ?? [] {
                let named = device.name.map { " “\(Self.visible($0))”" } ?? ""
                let trust = device.crossSigned ? "\(CommentHeaderLayout.verifiedText) signed by its owner" : "\(CommentHeaderLayout.unverifiedText) not signed by its owner"
                lines.append(KeyHelp("", "\(Self.visible(device.deviceID))\(named) · \(trust)"))
            }
        }
        show(Pager(.members(lines), title: "Members", details: "devices and trust", columns: size.columns, rows: size.rows))
    }

    /// A member's trust in words, with the mark their comments carry.
    static func words(for trust: SenderTrust?) -> String {
        switch trust {
        case .verified: "\(CommentHeaderLayout.verifiedText) verified"
        case .unverified: "\(CommentHeaderLayout.unverifiedText) not verified"
        case .identityChanged: CommentHeaderLayout.identityChangedText
        case nil: "devices not read yet"
        }
    }

    /// Text from the server as one line with no control reaching the terminal.
    private static func visible(_ text: String) -> String {
        VisibleControls.sanitize(text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\t", with: " "))
    }
}
