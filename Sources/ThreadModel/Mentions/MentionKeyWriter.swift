import Foundation

/// Writes folded search keys as UTF-8 bytes, back to back, for `MentionRanker`'s index.
///
/// The bytes are those of the scalars `MentionSearchKey` folds to (so matching and highlighting
/// agree), a quarter of the memory of `UInt32` scalars when most are ASCII. Folding a non-ASCII
/// character asks Foundation, which costs far more than the rest of a user's keys; names repeat
/// their characters (`é`, `ø`, an emoji) across a thread, so each is folded once per build.
struct MentionKeyWriter {
    /// The byte separators fold to (`MentionSearchKey.space`).
    static let space = UInt8(MentionSearchKey.space)

    /// Every key written so far.
    private(set) var bytes: [UInt8] = []
    /// Folded UTF-8 of each non-ASCII character met, for names and for handles.
    private var foldedNames: [Character: [UInt8]] = [:]
    private var foldedHandles: [Character: [UInt8]] = [:]

    /// A writer with room for `capacity` bytes.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends the folded key of `text`; returns how many bytes it took. With
    /// `separatorsAsSpace`, separators become spaces (`MentionSearchKey`).
    mutating func append(_ text: String, separatorsAsSpace: Bool) -> Int {
        let start = bytes.count
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 { bytes.append(UInt8(MentionSearchKey.foldASCII(UInt32(byte), separatorsAsSpace: separatorsAsSpace))) }
            return bytes.count - start
        }
        for character in text {
            if let ascii = character.asciiValue, character.unicodeScalars.count == 1 {
                bytes.append(UInt8(MentionSearchKey.foldASCII(UInt32(ascii), separatorsAsSpace: separatorsAsSpace)))
            } else if let folded = separatorsAsSpace ? foldedNames[character] : foldedHandles[character] {
                bytes += folded
            } else {
                let folded = Self.utf8(MentionSearchKey(String(character), separatorsAsSpace: separatorsAsSpace).scalars)
                if separatorsAsSpace { foldedNames[character] = folded } else { foldedHandles[character] = folded }
                bytes += folded
            }
        }
        return bytes.count - start
    }

    /// Gives the bytes up, with no spare capacity.
    mutating func finish() -> [UInt8] {
        defer { bytes = [] }
        // `Array(bytes)` would share the same buffer, spare capacity and all: copy the bytes.
        return bytes.withUnsafeBufferPointer { Array($0) }
    }

    /// The UTF-8 encoding of folded scalars (a query's, to compare with the keys).
    static func utf8(_ scalars: [UInt32]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(scalars.count)
        for value in scalars {
            guard let scalar = Unicode.Scalar(value) else { continue }
            out.append(contentsOf: scalar.utf8)
        }
        return out
    }
}
