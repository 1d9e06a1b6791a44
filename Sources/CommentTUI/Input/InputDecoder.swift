/// Turns the bytes a terminal sends into input events.
///
/// Feed it whatever `read()` returned; sequences split across reads are kept until complete.
/// The decoder reads no clock: when no byte arrived for `quietTimeout` seconds, the caller says
/// so with `inputWasQuiet(for:)`. That ends a lone Esc (which cannot be told from the start of
/// a sequence) and a bracketed paste whose end never came, which would otherwise swallow every
/// key after it, Ctrl-C included.
public struct InputDecoder: Sendable {
    /// How long an incomplete escape sequence waits for the rest, in seconds.
    static let escapeTimeout = 0.025
    /// How long a bracketed paste waits for its end (`ESC [ 201 ~`) once bytes stop coming: a
    /// terminal sends a paste in one burst, so a second without a byte means the end was lost.
    static let pasteQuietTimeout = 1.0
    /// The most a bracketed paste holds before it is handed on: 1 MiB, beyond any text a
    /// comment is written with. A longer paste goes on as several pastes and stays a paste (its
    /// line breaks never act as Enter); the decoder's memory stays bounded, and a paste whose
    /// end was lost still ends after a quiet second.
    static let maxPasteBytes = 1 << 20

    /// How long after a paste ended by its quiet second the rest of it may still come (a stalled
    /// connection): text and line breaks in that time are pasted text, never Enter.
    static let pasteResumeWindow = 10.0

    private var pending: [UInt8] = []
    private var pasteBuffer: [UInt8]? = nil
    /// A paste ended by its quiet second, not its end marker: more of it may follow.
    private var pasteMayResume = false

    /// Whether the grapheme probe's answers are still to come. Until the answer to its last
    /// query (DA1) ends them, `CSI row ; column R` is a cursor position report; otherwise it is
    /// F3 with modifiers, which xterm sends alike.
    private(set) var awaitsProbeAnswers = false

    public init() {}

    /// Reads every cursor position report as one until the device attributes answer comes
    /// (false: none any more, the probe is given up).
    public mutating func awaitProbeAnswers(_ awaiting: Bool = true) {
        awaitsProbeAnswers = awaiting
    }

    /// Whether bytes wait for the rest of a sequence (and a flush deadline applies).
    var hasPendingEscape: Bool { pasteBuffer == nil && !pending.isEmpty }

    /// Whether a bracketed paste has begun and not ended.
    var isInPaste: Bool { pasteBuffer != nil }

    /// After how many seconds without input the caller must call `inputWasQuiet(for:)`; nil
    /// when nothing waits.
    var quietTimeout: Double? {
        if isInPaste { return Self.pasteQuietTimeout }
        if hasPendingEscape { return Self.escapeTimeout }
        return pasteMayResume ? Self.pasteResumeWindow : nil
    }

    /// Told that no byte arrived for `seconds`: a pending escape is decoded as it stands after
    /// `escapeTimeout`, and an unfinished paste ends with what it holds after `pasteQuietTimeout`.
    public mutating func inputWasQuiet(for seconds: Double) -> [InputEvent] {
        if isInPaste {
            guard seconds >= Self.pasteQuietTimeout else { return [] }
            // The bytes kept as a possible start of the end marker were pasted text after all.
            pasteBuffer!.append(contentsOf: pending)
            pending.removeAll()
            pasteMayResume = true
            return [endPaste()]
        }
        if pasteMayResume, !hasPendingEscape, seconds >= Self.pasteResumeWindow { pasteMayResume = false }
        guard hasPendingEscape, seconds >= Self.escapeTimeout else { return [] }
        return flush()
    }

    /// What comes after a paste that lost its end.
    private enum Resumed {
        /// Bytes taken: pasted text, or the end marker (no event).
        case taken(InputEvent?, length: Int)
        /// A character cut by the read: wait for its last bytes.
        case incomplete
        /// Not text: the wait is over, and the bytes are read as keys.
        case over
    }

    /// After a paste that lost its end: the text (and line breaks) from `start` on, as pasted
    /// text, up to the first other control byte or escape; an end marker there is dropped and
    /// ends the wait, anything else ends it too and is read as keys.
    private mutating func resumedPaste(from start: Int, final: Bool) -> Resumed {
        var end = start
        while end < pending.count, Self.isPastedText(pending[end]) { end += 1 }
        if !final, end == pending.count {
            var lead = end
            while lead > start, lead > end - 4, pending[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
            if lead > start, pending[lead - 1] >= 0xC0, end - (lead - 1) < Self.utf8Length(pending[lead - 1]) { end = lead - 1 }
            if end == start, start < pending.count { return .incomplete }
        }
        if end > start { return .taken(.paste(Self.pasteText(Array(pending[start..<end]))), length: end - start) }
        pasteMayResume = false
        if pending.count - start >= 6, Array(pending[start..<(start + 6)]) == Self.pasteEndMarker { return .taken(nil, length: 6) }
        return .over
    }

    private static func isPastedText(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x7F || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func utf8Length(_ lead: UInt8) -> Int { lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2 }

    private static let pasteEndMarker: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]  // ESC [ 2 0 1 ~

    /// A full paste buffer goes on as one paste, cut before a character's last bytes so none is
    /// split; the rest starts the next piece and the paste goes on.
    private mutating func handOnPastePiece() -> InputEvent {
        var cut = pasteBuffer!.count
        // Back to the lead byte of a character that may not be whole (at most three back).
        var lead = cut
        while lead > max(0, cut - 4), lead > 0, pasteBuffer![lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        if lead > 0, pasteBuffer![lead - 1] >= 0xC0 { cut = lead - 1 }
        let rest = Array(pasteBuffer![cut...])
        pasteBuffer!.removeLast(rest.count)
        let piece = endPaste()
        pasteBuffer = rest
        return piece
    }

    private mutating func endPaste() -> InputEvent {
        let event = InputEvent.paste(Self.pasteText(pasteBuffer ?? []))
        pasteBuffer = nil
        return event
    }

    /// Decodes bytes, keeping an incomplete tail for the next call.
    public mutating func feed<C: Collection>(_ bytes: C) -> [InputEvent] where C.Element == UInt8 {
        pending.append(contentsOf: bytes)
        return decode(final: false)
    }

    /// Decodes what is pending as if no more bytes will follow it (after the escape timeout).
    public mutating func flush() -> [InputEvent] {
        decode(final: true)
    }

    private mutating func decode(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var i = 0
        while i < pending.count {
            if pasteBuffer != nil {
                let room = Self.maxPasteBytes - pasteBuffer!.count
                guard let end = findPasteEnd(from: i), end - i <= room else {
                    // Keep a possible partial terminator (an Esc among the last 5 bytes on) for
                    // the next read.
                    let tail = max(i, pending.count - 5)
                    let keep = pending[tail...].firstIndex(of: 0x1B).map { pending.count - $0 } ?? 0
                    let take = min(pending.count - keep - i, room)
                    pasteBuffer!.append(contentsOf: pending[i..<(i + take)])
                    i += take
                    guard pasteBuffer!.count >= Self.maxPasteBytes else { break }
                    events.append(handOnPastePiece())
                    continue
                }
                pasteBuffer!.append(contentsOf: pending[i..<end])
                events.append(endPaste())
                i = end + 6
                continue
            }
            if pasteMayResume {
                switch resumedPaste(from: i, final: final) {
                case .taken(let event, let length):
                    if let event { events.append(event) }
                    i += length
                    continue
                case .incomplete:
                    pending.removeFirst(i)
                    return events
                case .over:
                    break
                }
            }
            switch decodeOne(at: i, final: final) {
            case .incomplete:
                pending.removeFirst(i)
                return events
            case .event(let event, let length):
                if let event { events.append(event) }
                // The probe's last answer: what follows in the same read is keys again.
                if case .deviceAttributes? = event { awaitsProbeAnswers = false }
                i += length
            case .pasteStart(let length):
                pasteMayResume = false
                pasteBuffer = []
                i += length
            }
        }
        pending.removeFirst(min(i, pending.count))
        return events
    }

    private func findPasteEnd(from start: Int) -> Int? {
        let terminator = Self.pasteEndMarker
        var i = start
        while i + terminator.count <= pending.count {
            if pending[i] == 0x1B, Array(pending[i..<(i + terminator.count)]) == terminator { return i }
            i += 1
        }
        return nil
    }

    static func pasteText(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.replacingCRLF()
    }

    enum Step {
        case incomplete
        case event(InputEvent?, length: Int)
        case pasteStart(length: Int)
    }

    private func decodeOne(at i: Int, final: Bool) -> Step {
        let b = pending[i]
        if b == 0x1B {
            guard i + 1 < pending.count else {
                return final ? .event(.key(KeyPress(.escape)), length: 1) : .incomplete
            }
            let next = pending[i + 1]
            if next == 0x5B || next == 0x4F {  // CSI or SS3
                let step = next == 0x5B ? decodeCSI(at: i) : decodeSS3(at: i)
                if case .incomplete = step, final {
                    // A lone Esc followed by text typed quickly: Alt-[ / Alt-O.
                    return .event(.key(KeyPress(.character(Character(Unicode.Scalar(next))), .alt)), length: 2)
                }
                return step
            }
            if next == 0x1B {
                return .event(.key(KeyPress(.escape)), length: 1)
            }
            // Esc then a key: that key with Alt.
            switch decodePlain(at: i + 1, final: final) {
            case .incomplete: return .incomplete
            case .event(.key(var press)?, let length):
                press.modifiers.insert(.alt)
                return .event(.key(press), length: length + 1)
            case .event(_, let length): return .event(nil, length: length + 1)
            case .pasteStart: return .incomplete
            }
        }
        return decodePlain(at: i, final: final)
    }

    /// A control byte, a printable ASCII byte or a UTF-8 sequence.
    private func decodePlain(at i: Int, final: Bool) -> Step {
        let b = pending[i]
        switch b {
        case 0x0D: return .event(.key(KeyPress(.enter)), length: 1)
        case 0x09: return .event(.key(KeyPress(.tab)), length: 1)
        case 0x7F, 0x08: return .event(.key(KeyPress(.backspace)), length: 1)
        case 0x00: return .event(.key(.ctrl(" ")), length: 1)
        case 0x01...0x1A:
            return .event(.key(.ctrl(Character(Unicode.Scalar(b + 0x60)))), length: 1)
        case 0x1B: return .event(.key(KeyPress(.escape)), length: 1)
        case 0x1C...0x1F:
            return .event(.key(.ctrl(Character(Unicode.Scalar(b + 0x40)))), length: 1)
        case 0x20..<0x7F:
            return .event(.key(KeyPress(.character(Character(Unicode.Scalar(b))))), length: 1)
        default:
            return decodeUTF8(at: i, final: final)
        }
    }

    private func decodeUTF8(at i: Int, final: Bool) -> Step {
        let lead = pending[i]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .event(.key(KeyPress(.character("\u{FFFD}"))), length: 1)
        }
        var j = i + 1
        while j < i + length {
            guard j < pending.count else { return final ? .event(.key(KeyPress(.character("\u{FFFD}"))), length: j - i) : .incomplete }
            guard pending[j] & 0xC0 == 0x80 else { return .event(.key(KeyPress(.character("\u{FFFD}"))), length: j - i) }
            j += 1
        }
        let text = String(decoding: pending[i..<(i + length)], as: UTF8.self)
        return .event(.key(KeyPress(.character(text.first ?? "\u{FFFD}"))), length: length)
    }

    /// Helpers shared with the CSI decoder.
    func byte(at index: Int) -> UInt8? { index < pending.count ? pending[index] : nil }
}

extension String {
    /// Line ends as `\n`: pasted text arrives with `\r` from most terminals.
    func replacingCRLF() -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(unicodeScalars.count)
        var lastCR = false
        for s in unicodeScalars {
            if s == "\r" { out.unicodeScalars.append("\n"); lastCR = true; continue }
            if s == "\n", lastCR { lastCR = false; continue }
            lastCR = false
            out.unicodeScalars.append(s)
        }
        return out
    }
}
