/// One probe of the terminal: the bytes that ask, written on the shell's line before the screen
/// is taken, and the answers as they come back through the input stream (the loop hands them
/// over as events): DECRQM's for mode 2027, then one cursor position report per sample, then
/// the device attributes (DA1), in order. A key typed before the last answer makes the probe
/// void: xterm sends a modified F3 as a cursor position report, so any answer may be a key.
public struct GraphemeProbe: Sendable {
    /// The samples, each with its shape, in the order their reports come.
    let samples: [(text: String, shape: ClusterShape)]
    /// Where the answer is kept for the next start.
    let cache: GraphemePolicyCache?
    /// The column (1-based) of each cursor position report so far.
    private(set) var columns: [Int] = []
    /// The grapheme clustering mode's state: 1 set, 2 reset, 3 always set, 0 or 4 not there;
    /// nil unanswered.
    private(set) var graphemeMode: Int?
    /// Whether the last answer (the device attributes) has come.
    private(set) var isComplete = false
    /// Whether a key (or anything but an answer) came before the last answer.
    private(set) var wasInterrupted = false
    /// When the query was written, on the loop's clock (seconds); nil: when the loop starts.
    public var sentAt: Double?

    /// A probe of `samples`; those whose shape the C library measures as terminals do (no shape
    /// here) are left out.
    init(samples: [String], cache: GraphemePolicyCache?) {
        self.samples = samples.compactMap { text in ClusterShape(Array(text.unicodeScalars)).map { (text, $0) } }
        self.cache = cache
    }

    /// DECRQM for mode 2027; each sample after a carriage return, followed by CSI 6n; the line
    /// erased, so the shell's line is left as it was; last DA1, whose answer ends the answers.
    var query: String {
        var query = TerminalDevice.queryGraphemeClustering
        for sample in samples { query += "\r" + sample.text + "\u{1B}[6n" }
        return query + "\r\u{1B}[2K" + TerminalDevice.queryPrimaryDeviceAttributes
    }

    /// How many cursor position reports the answers hold.
    var reportCount: Int { samples.count }

    /// Takes `event` when it answers the probe; false for anything else, which (unless it is
    /// another query's answer) voids the probe when it comes before the last answer.
    mutating func take(_ event: InputEvent) -> Bool {
        guard !isComplete else { return false }
        switch event {
        case .cursorReport(_, let column):
            columns.append(column)
            return true
        case .modeReport(TerminalDevice.graphemeClusteringMode, let value):
            graphemeMode = value
            return true
        case .deviceAttributes:
            isComplete = true
            return true
        case .modeReport:
            return false
        default:
            wasInterrupted = true
            return false
        }
    }

    /// The policy the answers give: every shape whole with mode 2027 set (or reset, to be set),
    /// else the shapes all of whose samples moved the cursor two columns, the width the layout
    /// gives a cluster drawn whole. A shape with an emoji newer than the C library only where
    /// that emoji alone was two wide too: tmux 3.3a moves two columns over `🫷🏻` by drawing the
    /// skin tone alone, its hand unknown and dropped. Nil until the answers are in, and for
    /// answers that cannot be trusted: a key came among them, or not one report per sample.
    var policy: GraphemePolicy? {
        guard isComplete, !wasInterrupted, columns.count == samples.count else { return nil }
        switch graphemeMode {
        case 1?, 3?: return .allIntact
        case 2?: return GraphemePolicy(intact: [], wholeEverywhere: true, setsClusteringMode: true)
        default: break
        }
        var measured: [ClusterShape: Bool] = [:]
        for (sample, column) in zip(samples, columns) {
            measured[sample.shape] = (measured[sample.shape] ?? true) && column - 1 == 2
        }
        let knowsNewer = measured[.newer] == true
        return GraphemePolicy(intact: Set(measured.filter { $0.value && (knowsNewer || !$0.key.contains(.newer)) }.keys))
    }
}
