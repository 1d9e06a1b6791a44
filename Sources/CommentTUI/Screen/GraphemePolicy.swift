/// Which emoji clusters the terminal draws whole, as one glyph two columns wide, and so are
/// shown as their authors wrote them; the others are substituted (`DisplayWidth`).
///
/// Terminals disagree: kitty, WezTerm, foot and recent VTE draw a family or a flag as one
/// 2-column glyph; tmux 3.3a draws a family so but a family member with a skin tone four
/// columns wide and `❤️‍🔥` one; older terminals draw each scalar. The client asks the terminal
/// (`TerminalGraphemeProbe`) about a sample of each cluster shape; a cluster is drawn whole only
/// where a cluster of its very shape was measured two columns wide. Until the terminal answers,
/// and when it does not, every shape is substituted, which is safe everywhere.
public struct GraphemePolicy: Hashable, Sendable {
    /// The shapes measured two columns wide.
    public var intact: Set<ClusterShape>
    /// Every shape whole: the terminal clusters graphemes itself (mode 2027), or the user said
    /// so (`COMMENT_TUI_GRAPHEMES=intact`).
    public var wholeEverywhere: Bool
    /// Whether the terminal clusters only once asked (DECRQM 2027 answered "reset"): the client
    /// then sets grapheme clustering mode while it holds the screen.
    public var setsClusteringMode: Bool

    public init(intact: Set<ClusterShape>, wholeEverywhere: Bool = false, setsClusteringMode: Bool = false) {
        self.intact = intact
        self.wholeEverywhere = wholeEverywhere
        self.setsClusteringMode = setsClusteringMode
    }

    /// Every shape substituted: what a terminal gets until it answers, or if it never does.
    public static let substitute = GraphemePolicy(intact: [])
    /// Every shape whole (`COMMENT_TUI_GRAPHEMES=intact`, or a terminal with mode 2027 set).
    public static let allIntact = GraphemePolicy(intact: [], wholeEverywhere: true)

    /// Whether a cluster of `shape` is drawn whole.
    public func drawsWhole(_ shape: ClusterShape) -> Bool {
        wholeEverywhere || intact.contains(shape)
    }

    /// Whether any cluster is drawn whole (else ncurses and the terminal agree on every cell).
    public var drawsSomeWhole: Bool { wholeEverywhere || !intact.isEmpty }

    /// The most UTF-8 bytes a whole cluster may have (a cell keeps 23): longer ones are substituted.
    static let maximumBytes = 23
}
