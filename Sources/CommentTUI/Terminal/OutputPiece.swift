/// One piece of what ncurses writes: a control sequence, a control character, or text.
struct OutputPiece: Equatable {
    enum Kind: Equatable {
        /// CSI with its final byte (`m` for SGR, `r` for DECSTBM, `H` for CUP…).
        case csi(UInt8)
        /// ESC and one byte (`7` DECSC, `8` DECRC, `M` reverse index…).
        case escape(UInt8)
        /// ESC, intermediates and a final: a character set designation such as `ESC ( B`.
        case designation
        /// A C0 control character other than ESC.
        case control(UInt8)
        /// Printable text (UTF-8), up to the next control.
        case text
    }

    var kind: Kind
    var range: Range<Int>

    /// Splits output into pieces; an unfinished sequence at the end is text.
    static func split(_ bytes: [UInt8]) -> [OutputPiece] {
        var pieces: [OutputPiece] = []
        var i = 0, textStart = 0
        func endText() { if textStart < i { pieces.append(OutputPiece(kind: .text, range: textStart..<i)) } }
        while i < bytes.count {
            let byte = bytes[i]
            guard byte < 0x20 else { i += 1; continue }
            endText()
            if byte == 0x1B, i + 1 < bytes.count {
                let next = bytes[i + 1]
                var j = i + 1
                let kind: Kind
                if next == UInt8(ascii: "[") {
                    j = i + 2
                    while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
                    kind = j < bytes.count ? .csi(bytes[j]) : .text
                } else if (0x20...0x2F).contains(next) {
                    while j < bytes.count, (0x20...0x2F).contains(bytes[j]) { j += 1 }
                    kind = j < bytes.count ? .designation : .text
                } else {
                    kind = .escape(next)
                }
                let end = min(j + 1, bytes.count)
                pieces.append(OutputPiece(kind: kind, range: i..<end))
                i = end
            } else {
                pieces.append(OutputPiece(kind: .control(byte), range: i..<(i + 1)))
                i += 1
            }
            textStart = i
        }
        endText()
        return pieces
    }

    /// A CSI's parameters as numbers (nil where one is empty); nil if they are not plain
    /// decimal numbers separated by `;` (private or sub-parameters).
    func numbers(in bytes: [UInt8]) -> [Int?]? {
        guard case .csi = kind else { return nil }
        let parameters = bytes[(range.lowerBound + 2)..<(range.upperBound - 1)]
        if parameters.isEmpty { return [] }
        var result: [Int?] = []
        var current: Int?
        for byte in parameters {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                current = min((current ?? 0) * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000)
            case UInt8(ascii: ";"):
                result.append(current)
                current = nil
            default:
                return nil
            }
        }
        result.append(current)
        return result
    }
}
