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
/// terminates the fragment; it then fails to decode and is reported as torn. A line that grows
/// over the line limit is passed over (counted, no longer kept) and reported when it ends.
public struct ThreadFileFollower: Sendable {
    /// Bytes of the file consumed as complete lines.
    public private(set) var offset: Int
    /// Complete lines seen so far, for problem reports.
    public private(set) var lineCount: Int
    private var pending: [UInt8] = []
    /// Bytes of an unfinished line over the limit, passed over rather than kept.
    private var passedOver = 0
    private let lineLimit: Int
    private let decoder = ThreadRecordDecoder()

    /// Follows a file whose first `offset` bytes (`lineCount` complete lines) were read already,
    /// and then `passingOver` bytes of an unfinished line already over the limit.
    public init(offset: Int, lineCount: Int, passingOver: Int = 0, lineLimit: Int = ThreadFileLimits.lineBytes) {
        self.offset = offset
        self.lineCount = lineCount
        passedOver = passingOver
        self.lineLimit = lineLimit
    }

    /// The file offset of the next byte to ingest.
    public var position: Int { offset + passedOver + pending.count }

    /// Bytes past `offset` received but not yet a complete line.
    var pendingByteCount: Int { passedOver + pending.count }

    /// Forgets the unfinished line: its writer cut it off (an append that failed part-way is
    /// taken back), so the next bytes are read again from `offset`.
    mutating func forgetUnfinishedLine() {
        pending = []
        passedOver = 0
    }

    /// Takes the next appended bytes (those right after what came before).
    mutating func ingest(_ bytes: [UInt8]) -> ThreadFileUpdate {
        var update = ThreadFileUpdate()
        var rest = bytes[...]
        if passedOver > 0 {
            guard let newline = rest.firstIndex(of: UInt8(ascii: "\n")) else {
                passedOver += rest.count
                return update
            }
            let length = passedOver + (newline - rest.startIndex)
            lineCount += 1
            update.problems.append(ThreadFileProblem(line: lineCount, message: ThreadFileLimits.overlongLineMessage(bytes: length)))
            offset += length + 1
            passedOver = 0
            rest = rest[(newline + 1)...]
        }
        guard !rest.isEmpty else { return update }
        pending += rest
        // No newline in this piece: nothing completes, and a long line arriving in many pieces
        // is not rescanned for each one.
        if rest.contains(UInt8(ascii: "\n")) {
            let consumed = ThreadFileReader.forEachCompleteLine(in: pending) { line in
                lineCount += 1
                if line.count > lineLimit {
                    let message = ThreadFileLimits.overlongLineMessage(bytes: line.count)
                    return update.problems.append(ThreadFileProblem(line: lineCount, message: message))
                }
                switch decoder.decode(line) {
                case .record(let record): update.records.append((record, lineCount))
                case .ignored: break
                case .malformed(let message): update.problems.append(ThreadFileProblem(line: lineCount, message: message))
                }
            }
            offset += consumed
            pending.removeFirst(consumed)
        }
        if pending.count > lineLimit {
            passedOver = pending.count
            pending = []
        }
        return update
    }
}
