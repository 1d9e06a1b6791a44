/// What another writer appended to a thread file since the last look.
public struct ThreadFileUpdate: Sendable {
    /// Records from complete lines, in file order, with their line numbers.
    public var records: [(record: ThreadRecord, line: Int)]
    /// Lines that did not read, with their line numbers (torn appends among them).
    public var problems: [ThreadFileProblem]
    /// An update with these records and problems.
    public init(records: [(record: ThreadRecord, line: Int)] = [], problems: [ThreadFileProblem] = []) {
        self.records = records
        self.problems = problems
    }

    /// Whether nothing arrived that needs attention.
    public var isEmpty: Bool { records.isEmpty && problems.isEmpty }
}

/// Turns bytes appended to a thread file, in pieces of any size, into records.
///
/// An unterminated line waits in `pending` until its newline arrives: it is not a record yet.
/// If a writer died mid-line, the next append starts on a new line (the writer's rule), which
/// terminates the fragment; it then fails to decode and is reported as torn.
public struct ThreadFileFollower: Sendable {
    /// Bytes of the file consumed as complete lines.
    public private(set) var offset: Int
    /// Complete lines seen so far, for problem reports.
    public private(set) var lineCount: Int
    private var pending: [UInt8] = []
    private let decoder = ThreadRecordDecoder()

    /// Follows a file whose first `offset` bytes (`lineCount` complete lines) were read already.
    public init(offset: Int, lineCount: Int) {
        self.offset = offset
        self.lineCount = lineCount
    }

    /// Bytes past `offset` received but not yet a complete line.
    var pendingByteCount: Int { pending.count }

    /// Takes the next appended bytes (those right after what came before).
    mutating func ingest(_ bytes: [UInt8]) -> ThreadFileUpdate {
        var update = ThreadFileUpdate()
        guard !bytes.isEmpty else { return update }
        pending += bytes
        // No newline in this piece: nothing completes, and a long line arriving in many pieces
        // is not rescanned for each one.
        guard bytes.contains(UInt8(ascii: "\n")) else { return update }
        let consumed = ThreadFileReader.forEachCompleteLine(in: pending) { line in
            lineCount += 1
            switch decoder.decode(line) {
            case .record(let record): update.records.append((record, lineCount))
            case .ignored: break
            case .malformed(let message): update.problems.append(ThreadFileProblem(line: lineCount, message: message))
            }
        }
        offset += consumed
        pending.removeFirst(consumed)
        return update
    }
}
