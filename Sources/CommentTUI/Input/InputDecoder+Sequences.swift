extension InputDecoder {
    /// The largest value a CSI parameter is read as: above every key code (U+10FFFF), mode
    /// number and screen coordinate a terminal sends, and far enough below `Int.max` that no
    /// arithmetic on a parameter (`- 1`, `* 10`) can overflow. Larger numbers are clamped to it.
    static let maxParameter = 9_999_999
    /// How many parameters are kept; more are ignored (no sequence needs as many).
    static let maxParameters = 16
    /// How long a CSI sequence may grow without its final byte before it is dropped as garbage
    /// (real ones are under 32 bytes), so a flood of digits is not rescanned on every read.
    static let maxSequenceLength = 256

    /// `ESC [ params final`: cursor and function keys with xterm modifiers, SGR and X10 mouse,
    /// bracketed paste, focus reports, `CSI u` keys, and the terminal's reports: modes, device
    /// attributes and the grapheme probe's cursor positions.
    func decodeCSI(at i: Int) -> Step {
        var j = i + 2
        if byte(at: j) == 0x4D {
            // X10 mouse `ESC [ M cb cx cy`, sent by terminals without SGR reporting.
            guard let cb = byte(at: j + 1), let cx = byte(at: j + 2), let cy = byte(at: j + 3) else { return .incomplete }
            let event = Self.mouseEvent(code: Int(cb) - 32, column: Int(cx) - 33, row: Int(cy) - 33, released: false)
            return .event(event.map(InputEvent.mouse), length: j + 4 - i)
        }
        var isSGRMouse = false
        if byte(at: j) == 0x3C { isSGRMouse = true; j += 1 }
        let isPrivate = byte(at: j) == 0x3F
        var intermediate: UInt8?
        var params: [Int] = []
        var current: Int? = nil
        while let b = byte(at: j) {
            guard j - i < Self.maxSequenceLength else { return .event(nil, length: j - i) }
            if b >= 0x30 && b <= 0x39 {
                // Clamped as it is read: a wrapped value would trap in `params[1] - 1`.
                current = min((current ?? 0) * 10 + Int(b - 0x30), Self.maxParameter)
            } else if b == 0x3B || b == 0x3A {
                if params.count < Self.maxParameters { params.append(current ?? 0) }
                current = nil
            } else if b >= 0x3C && b <= 0x3F || b >= 0x20 && b <= 0x2F {
                // private markers and intermediates: only a mode report (`$ y`) needs one
                if b <= 0x2F { intermediate = b }
            } else if b >= 0x40 && b <= 0x7E {
                if let c = current, params.count < Self.maxParameters { params.append(c) }
                let length = j + 1 - i
                if isSGRMouse {
                    guard params.count >= 3 else { return .event(nil, length: length) }
                    let event = Self.mouseEvent(code: params[0], column: params[1] - 1, row: params[2] - 1, released: b == 0x6D)
                    return .event(event.map(InputEvent.mouse), length: length)
                }
                if isPrivate, intermediate == 0x24, b == 0x79, params.count == 2 {
                    // DECRPM `CSI ? mode ; value $ y`: the terminal's answer to a DECRQM query.
                    return .event(.modeReport(mode: params[0], value: params[1]), length: length)
                }
                if isPrivate, intermediate == nil, b == 0x63 {
                    // DA1's answer `CSI ? attributes c`: no key is sent so.
                    return .event(.deviceAttributes, length: length)
                }
                if b == 0x52, awaitsProbeAnswers, !isPrivate, intermediate == nil, params.count == 2 {
                    // CPR `CSI row ; column R` before the probe's last answer: the probe's, not a modified F3.
                    return .event(.cursorReport(row: params[0], column: params[1]), length: length)
                }
                return Self.csiKey(final: b, params: params, length: length)
            } else {
                // A byte that cannot be in a CSI sequence: drop what we had.
                return .event(nil, length: j - i)
            }
            j += 1
        }
        return .incomplete
    }

    /// `ESC O final`: SS3 cursor and F1–F4 keys.
    func decodeSS3(at i: Int) -> Step {
        guard let b = byte(at: i + 2) else { return .incomplete }
        if let key = Self.letterKey(b) { return .event(.key(KeyPress(key)), length: 3) }
        if b == 0x4D { return .event(.key(KeyPress(.enter)), length: 3) }
        return .event(nil, length: 3)
    }

    static func letterKey(_ b: UInt8) -> Key? {
        switch b {
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        case 0x48: .home
        case 0x46: .end
        case 0x50: .function(1)
        case 0x51: .function(2)
        case 0x52: .function(3)
        case 0x53: .function(4)
        default: nil
        }
    }

    static func tildeKey(_ n: Int) -> Key? {
        switch n {
        case 1, 7: .home
        case 2: .insert
        case 3: .delete
        case 4, 8: .end
        case 5: .pageUp
        case 6: .pageDown
        case 11...15: .function(n - 10)
        case 17...21: .function(n - 11)
        case 23, 24: .function(n - 12)
        default: nil
        }
    }

    static func csiKey(final b: UInt8, params: [Int], length: Int) -> Step {
        let modifiers = KeyModifiers(xtermParameter: params.count > 1 ? params[1] : 1)
        switch b {
        case 0x7E:  // ~
            let n = params.first ?? 0
            if n == 200 { return .pasteStart(length: length) }
            if n == 27, params.count >= 3, let scalar = Unicode.Scalar(params[2]) {
                // xterm modifyOtherKeys: ESC [ 27 ; mods ; code ~
                return .event(codeKey(scalar, KeyModifiers(xtermParameter: params[1])), length: length)
            }
            guard let key = tildeKey(n) else { return .event(nil, length: length) }
            return .event(.key(KeyPress(key, modifiers)), length: length)
        case 0x5A:  // Z
            return .event(.key(KeyPress(.backTab, modifiers)), length: length)
        case 0x49: return .event(.focus(true), length: length)   // I
        case 0x4F: return .event(.focus(false), length: length)  // O
        case 0x75:  // u: CSI code ; mods u
            guard let code = params.first, let scalar = Unicode.Scalar(code) else { return .event(nil, length: length) }
            return .event(codeKey(scalar, modifiers), length: length)
        default:
            guard let key = letterKey(b) else { return .event(nil, length: length) }
            return .event(.key(KeyPress(key, modifiers)), length: length)
        }
    }

    static func codeKey(_ scalar: Unicode.Scalar, _ modifiers: KeyModifiers) -> InputEvent {
        switch scalar.value {
        case 13: .key(KeyPress(.enter, modifiers))
        case 9: .key(KeyPress(.tab, modifiers))
        case 27: .key(KeyPress(.escape, modifiers))
        case 127, 8: .key(KeyPress(.backspace, modifiers))
        default: .key(KeyPress(.character(Character(scalar)), modifiers))
        }
    }

    /// Decodes the button code of an SGR or X10 report.
    static func mouseEvent(code: Int, column: Int, row: Int, released: Bool) -> MouseEvent? {
        var modifiers: KeyModifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.ctrl) }
        let motion = code & 32 != 0
        let low = code & 3
        let button: MouseButton
        var action: MouseAction = released ? .release : (motion ? .drag : .press)
        if code & 64 != 0 {
            button = [MouseButton.wheelUp, .wheelDown, .wheelLeft, .wheelRight][low]
            action = .press
        } else if low == 3 {
            // X10 reports a release as button 3; with motion and no button it is a move.
            button = .none
            action = motion ? .move : .release
        } else {
            button = [MouseButton.left, .middle, .right][low]
        }
        guard column >= 0, row >= 0 else { return nil }
        return MouseEvent(button, action, column: column, row: row, modifiers: modifiers)
    }
}
