/// Bytes written as hex in known-answer vectors.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    precondition(digits.count % 2 == 0, "odd hex")
    return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(digits[$0 ... $0 + 1]), radix: 16)! }
}

/// The bytes of UTF-8 text.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
