/// Ctrl-S over the file's bytes: comment lines are read in one `pread` per run and judged
/// raw (`SearchPattern.verdict(line:)`), so only lines that may match are decoded.
extension ThreadIndex {
    /// Verdicts for the comments below `end`, from `end - 1` down: at most `count` of them, and
    /// lines of at most `maxBytes` together (the first line whatever its size). A run that does
    /// not read back (the file shrank) is undecided, so decoding it reports why; so is a line
    /// whose comment has one of `ids` (shown with other text: an edit), or one the file edits or
    /// deletes.
    public func verdictsFromLines(_ pattern: SearchPattern, below end: Int, atMost count: Int, maxBytes: Int,
                                  leavingUndecided ids: Set<String> = []) -> SearchVerdicts {
        precondition(end > 0 && end <= commentCount && count > 0, "a run of comments in the index")
        let top = end - 1
        let spanEnd = commentOffsets[top] + Int(commentLengths[top])
        var low = top
        while low > 0, top - low + 1 < count, spanEnd - commentOffsets[low - 1] <= maxBytes { low -= 1 }
        let base = commentOffsets[low]
        let span = spanEnd - base
        guard let bytes = try? descriptor.read(at: base, count: span), bytes.count == span else {
            return SearchVerdicts(verdicts: Array(repeating: .undecided, count: top - low + 1), bytes: span)
        }
        var verdicts: [SearchVerdict] = []
        verdicts.reserveCapacity(top - low + 1)
        let idBytes = Set(ids.map { Array($0.utf8) })
        bytes.withUnsafeBytes { raw in
            for position in stride(from: top, through: low, by: -1) {
                let start = commentOffsets[position] - base
                let line = UnsafeRawBufferPointer(rebasing: raw[start..<(start + Int(commentLengths[position]))])
                let verdict = pattern.verdict(line: line)
                let changed = (!idBytes.isEmpty && Self.hasID(line, in: idBytes))
                    || (!changedIDBytes.isEmpty && Self.hasID(line, in: changedIDBytes))
                verdicts.append(verdict == .undecided || !changed ? verdict : .undecided)
            }
        }
        return SearchVerdicts(verdicts: verdicts, bytes: span)
    }

    private static let beforeID = Array(#"{"type":"comment","id":""#.utf8)

    /// Whether a line the verdict could read (so it starts as a canonical comment) holds one of
    /// `ids`; an id written with escapes counts as one (it may decode to any of them).
    private static func hasID(_ line: UnsafeRawBufferPointer, in ids: Set<[UInt8]>) -> Bool {
        guard line.starts(with: beforeID) else { return true }
        var end = beforeID.count
        while end < line.count, line[end] != UInt8(ascii: "\"") {
            if line[end] == UInt8(ascii: "\\") { return true }
            end += 1
        }
        return ids.contains(Array(line[beforeID.count..<end]))
    }
}
