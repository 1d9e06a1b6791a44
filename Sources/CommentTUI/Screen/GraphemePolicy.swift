/// Which emoji clusters the terminal draws whole, as one glyph two columns wide, and so are
/// shown as their authors wrote them; the others are substituted (`DisplayWidth`).
///
/// Terminals disagree: kitty, WezTerm, foot and recent VTE draw a family or a flag as one
/// 2-column glyph, tmux splits ZWJ sequences, older terminals draw each scalar. The client asks
/// the terminal (`TerminalGraphemeProbe`) before taking the screen; without an answer every
/// class is substituted, which is safe everywhere.
public struct GraphemePolicy: Hashable, Sendable {
    /// The kinds of emoji cluster terminals size differently.
    public enum ClusterClass: String, CaseIterable, Sendable {
        /// Emoji joined by ZWJ: `👨‍👩‍👧`.
        case zwjSequence
        /// Two regional indicators: `🇫🇷`.
        case flag
        /// A text character with VS16: `❤️`.
        case emojiPresentation
        /// An emoji with a skin tone: `👍🏽`.
        case skinTone
        /// A keycap: `1️⃣`.
        case keycap
        /// An emoji newer than the C library's tables: `🫠`.
        case newerEmoji

        /// What the probe writes to see how far the terminal's cursor moves over it.
        public var sample: String {
            switch self {
            case .zwjSequence: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"
            case .flag: "\u{1F1EB}\u{1F1F7}"
            case .emojiPresentation: "\u{2764}\u{FE0F}"
            case .skinTone: "\u{1F44D}\u{1F3FD}"
            case .keycap: "1\u{FE0F}\u{20E3}"
            case .newerEmoji: "\u{1FAE0}"
            }
        }
    }

    /// The classes drawn whole.
    public var intact: Set<ClusterClass>
    /// Whether the terminal clusters only once asked (DECRQM 2027 answered "reset"): the client
    /// then sets grapheme clustering mode while it holds the screen.
    public var setsClusteringMode: Bool

    public init(intact: Set<ClusterClass>, setsClusteringMode: Bool = false) {
        self.intact = intact
        self.setsClusteringMode = setsClusteringMode
    }

    /// Every class substituted: what a terminal that did not answer gets.
    public static let substitute = GraphemePolicy(intact: [])
    /// Every class whole (`COMMENT_TUI_GRAPHEMES=intact`, or a terminal with mode 2027).
    public static let allIntact = GraphemePolicy(intact: Set(ClusterClass.allCases))

    /// The most UTF-8 bytes a whole cluster may have (a cell keeps 23): longer ones are substituted.
    static let maximumBytes = 23

    /// The class of a cluster the layout would substitute; nil for anything else, and for a
    /// cluster holding anything but emoji, joiners, selectors, modifiers, tags and keycap bases
    /// (so nothing hostile rides along in a cell drawn whole).
    static func classify(_ scalars: [Unicode.Scalar]) -> ClusterClass? {
        guard let first = scalars.first, scalars.allSatisfy(isEmojiPart) else { return nil }
        if scalars.count == 2, scalars.allSatisfy(DisplayWidth.isRegionalIndicator) { return .flag }
        if scalars.contains(where: { $0.value == 0x20E3 }) { return .keycap }
        if scalars.contains(where: { $0.value == 0x200D }) { return .zwjSequence }
        if scalars.contains(where: { (0x1F3FB...0x1F3FF).contains($0.value) }) { return .skinTone }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return .emojiPresentation }
        if scalars.count == 1, first.properties.isEmojiPresentation {
            let width = DisplayWidth.libcWidth(first)
            return width < 0 || width == 1 ? .newerEmoji : nil
        }
        return nil
    }

    private static func isEmojiPart(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x200D, 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0x23, 0x2A, 0x30...0x39:
            return true
        default:
            return s.value >= 0xA9 && s.properties.isEmoji
        }
    }
}
