/// A desktop notification through the terminal: the escape a terminal turns into its own
/// notification (it works over SSH, with nothing installed), chosen by which terminal it is.
///
/// Its text comes from others (a room's name, a display name, a comment): every control
/// character (C0, DEL, C1, so no ESC, BEL or ST ends the escape early), every bidi control and
/// line break, and `;` (the field separator of OSC 777 and ConEmu's OSC 9 commands) are taken
/// out, and each field is cut to a bound, before it is put in the escape.
public enum TerminalNotification {
    /// Which escape the terminal takes.
    public enum Style: String, Equatable, Sendable, CaseIterable {
        /// `OSC 777 ; notify ; title ; body ST`: urxvt's extension call, taken by foot
        /// (foot-ctlseqs(7): only the notify sub-command) and WezTerm (its docs,
        /// `notification_handling`: both 777 and 9 raise a toast).
        case osc777
        /// `OSC 9 ; text ST`: iTerm2's (iterm2.com, "Proprietary Escape Codes": post a
        /// notification), taken by Ghostty (ghostty.org/docs/vt/osc/9; its 1.2 shows no OSC 777).
        /// No title of its own: "title: body".
        case osc9
        /// `OSC 99 ; i=ID:d=0 ; title ST` then `OSC 99 ; i=ID:d=1:p=body ; body ST`: kitty's
        /// (sw.kovidgoyal.net/kitty/desktop-notifications; kitty declined OSC 777, issue 1474).
        case osc99
        /// BEL, once: every terminal has a bell (tmux marks the window and passes it on).
        case bell
    }

    /// `COMMENT_TUI_NOTIFY`: `0` turns notifications off (as `--no-notify`); a style's name
    /// (`osc777`, `osc9`, `osc99`, `bell`) forces that escape where the terminal is not known.
    public static let variable = "COMMENT_TUI_NOTIFY"

    /// Whether the environment turns notifications off.
    public static func isTurnedOff(environment: [String: String]) -> Bool { environment[variable] == "0" }

    /// The escape the terminal described by `environment` takes.
    ///
    /// Inside tmux or screen, BEL: tmux passes an escape on only wrapped in its DCS passthrough,
    /// and only with `allow-passthrough on`, off by default since 3.3 (the wrapped escape is
    /// then dropped); its maintainer points to passthrough rather than handling OSC 777 or 9
    /// itself (tmux issue 5136). Its bell reaches the terminal outside and marks the window.
    /// urxvt also gets BEL: its OSC 777 calls a perl extension by name, and `notify` is not
    /// one it ships (urxvtperl(3)), so the escape would show nothing; its bell sets the urgency
    /// hint. Konsole and VTE document no notification escape (Fedora's VTE patch is not upstream).
    public static func style(environment: [String: String]) -> Style {
        if let forced = environment[variable].flatMap(Style.init(rawValue:)) { return forced }
        let term = environment["TERM"] ?? ""
        if environment["TMUX"] != nil || environment["STY"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen") {
            return .bell
        }
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" { return .osc99 }
        switch environment["TERM_PROGRAM"] {
        case "iTerm.app", "ghostty": return .osc9
        case "WezTerm": return .osc777
        default: break
        }
        // TERM alone reaches over SSH, where TERM_PROGRAM does not.
        if term == "xterm-ghostty" { return .osc9 }
        if term == "wezterm" || term == "foot" || term.hasPrefix("foot-") { return .osc777 }
        return .bell
    }

    /// The longest title and body a notification carries, in characters.
    public static let titleLimit = 80
    public static let bodyLimit = 200

    /// The bytes that raise `text` as a notification in `style`; `identifier` tells a kitty
    /// notification from the one before (each is built from two escapes).
    public static func bytes(_ text: NotificationText, style: Style, identifier: Int = 1) -> [UInt8] {
        let fallbackTitle = "comment-tui"
        var title = clean(text.title, limit: titleLimit)
        if title.isEmpty { title = fallbackTitle }
        let body = clean(text.body, limit: bodyLimit)
        let st = "\u{1B}\\"
        let escape: String
        switch style {
        case .osc777:
            escape = "\u{1B}]777;notify;\(title);\(body)\(st)"
        case .osc9:
            escape = "\u{1B}]9;\(body.isEmpty ? title : "\(title): \(body)")\(st)"
        case .osc99:
            // The identifier is a word of the metadata's own alphabet: digits.
            let id = "i=\(max(0, identifier))"
            escape = "\u{1B}]99;\(id):d=0;\(title)\(st)\u{1B}]99;\(id):d=1:p=body;\(body)\(st)"
        case .bell:
            escape = "\u{07}"
        }
        return Array(escape.utf8)
    }

    /// `text` safe inside the escape: controls and bidi controls out, line breaks and tabs as
    /// spaces, `;` as `,`, runs of spaces as one, cut to `limit` characters with `…`.
    static func clean(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let value = scalar.value
            var kept: Unicode.Scalar? = scalar
            if value == 0x09 || value == 0x0A || value == 0x0D || value == 0x2028 || value == 0x2029 || value == 0x85 {
                kept = " "
            } else if value < 0x20 || (0x7F...0x9F).contains(value) || isBidiControl(value) {
                kept = nil
            } else if scalar == ";" {
                kept = ","
            }
            guard let kept else { continue }
            if kept == " " {
                if lastWasSpace { continue }
                lastWasSpace = true
            } else {
                lastWasSpace = false
            }
            out.append(kept)
        }
        var result = String(out)
        while result.last == " " { result.removeLast() }
        if result.count > limit { result = String(result.prefix(limit - 1)) + "…" }
        return result
    }

    /// The marks that reorder text (embeddings, overrides, isolates, the direction marks): a
    /// name must not turn the rest of the notification around.
    private static func isBidiControl(_ value: UInt32) -> Bool {
        (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
    }
}
