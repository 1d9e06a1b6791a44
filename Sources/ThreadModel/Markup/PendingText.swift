/// The text the inline parser has read since its last node, as UTF-8 bytes: most of it is
/// ASCII, appended a byte at a time, and it becomes a String once, when the next node comes.
struct PendingText {
    private var bytes: [UInt8] = []

    var isEmpty: Bool { bytes.isEmpty }

    /// The last scalar when it is ASCII (enough to find the spaces before a line break).
    var lastASCII: Unicode.Scalar? {
        guard let last = bytes.last, last < 0x80 else { return nil }
        return Unicode.Scalar(last)
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.value < 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: scalar.value))
        } else {
            bytes.append(contentsOf: UTF8.encode(scalar)!)
        }
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append<S: Sequence<Unicode.Scalar>>(contentsOf scalars: S) {
        for scalar in scalars { append(scalar) }
    }

    /// Removes the last byte; only for an ASCII last scalar (`lastASCII`).
    mutating func removeLastASCII() {
        precondition(lastASCII != nil, "the last scalar is ASCII")
        bytes.removeLast()
    }

    /// The text, leaving this empty.
    mutating func take() -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        bytes.removeAll(keepingCapacity: true)
        return text
    }
}
