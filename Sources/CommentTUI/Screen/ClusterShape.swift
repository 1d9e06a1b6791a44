/// What an emoji cluster is made of, as far as terminals size it differently: the set of
/// features present in it. Terminals draw clusters of one shape alike, and clusters of two
/// shapes that share a feature differently (tmux 3.3a draws `👨‍👩‍👧` two columns wide, `👩🏽‍💻` four and
/// `❤️‍🔥` one), so the probe measures each shape and a cluster is drawn whole only where a
/// cluster of its very shape was (`GraphemePolicy`).
public struct ClusterShape: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// A zero-width joiner: `👨‍👩‍👧`.
    public static let joiner = ClusterShape(rawValue: 1 << 0)
    /// A skin-tone modifier: `👍🏽`.
    public static let skinTone = ClusterShape(rawValue: 1 << 1)
    /// The emoji presentation selector, VS16: `❤️`, `🤷‍♂️`.
    public static let presentationSelector = ClusterShape(rawValue: 1 << 2)
    /// Two regional indicators: `🇫🇷`.
    public static let flag = ClusterShape(rawValue: 1 << 3)
    /// A keycap: `1️⃣`.
    public static let keycap = ClusterShape(rawValue: 1 << 4)
    /// Tag characters: `🏴󠁧󠁢󠁥󠁮󠁧󠁿` (28 bytes: longer than a cell holds, so never whole).
    public static let tags = ClusterShape(rawValue: 1 << 5)
    /// A lead the C library counts one column: a text symbol made emoji (`❤`, `👁`, `🖐`), a
    /// keycap's key, a regional indicator. Terminals that size a cluster by its lead draw it
    /// one column wide (tmux draws `❤️‍🔥` so, and `🤷‍♂️` two).
    public static let narrowLead = ClusterShape(rawValue: 1 << 6)
    /// A scalar the C library has no width for: an emoji newer than its tables (`🫨`).
    public static let newer = ClusterShape(rawValue: 1 << 7)

    /// Every feature with its name, as the cache keeps them.
    static let features: [(feature: ClusterShape, name: String)] = [
        (.joiner, "joiner"), (.skinTone, "skinTone"), (.presentationSelector, "presentationSelector"),
        (.flag, "flag"), (.keycap, "keycap"), (.tags, "tags"), (.narrowLead, "narrowLead"), (.newer, "newer"),
    ]

    /// The shape of a cluster the layout would otherwise substitute; nil for anything else (text,
    /// an emoji the C library measures as terminals do), for a cluster holding anything but
    /// emoji, joiners, selectors, modifiers, tags and keycap keys (so nothing hostile rides along
    /// in a cell drawn whole), and for one that is no emoji sequence (`isSequence`).
    init?(_ scalars: [Unicode.Scalar]) {
        guard let first = scalars.first, scalars.allSatisfy(Self.isEmojiPart) else { return nil }
        if scalars.count == 1 {
            // A lone emoji only when the C library does not know it, or thinks it narrow.
            guard first.properties.isEmojiPresentation else { return nil }
            let width = DisplayWidth.libcWidth(first)
            guard width < 0 || width == 1 else { return nil }
            self = width < 0 ? .newer : .narrowLead
            return
        }
        guard Self.isSequence(scalars) else { return nil }
        var shape: ClusterShape = []
        for scalar in scalars {
            switch scalar.value {
            case 0x200D: shape.insert(.joiner)
            case 0x1F3FB...0x1F3FF: shape.insert(.skinTone)
            case 0xFE0F: shape.insert(.presentationSelector)
            case 0x20E3: shape.insert(.keycap)
            case 0xE0020...0xE007F: shape.insert(.tags)
            default: if DisplayWidth.libcWidth(scalar) < 0 { shape.insert(.newer) }
            }
        }
        if scalars.count == 2, scalars.allSatisfy(DisplayWidth.isRegionalIndicator) { shape.insert(.flag) }
        if DisplayWidth.libcWidth(first) == 1 { shape.insert(.narrowLead) }
        // Emoji side by side with nothing that joins or sizes them: no sequence at all. A key
        // (`#`, a digit) is an emoji part only in a keycap.
        guard !shape.subtracting([.narrowLead, .newer]).isEmpty, !first.isASCII || shape.contains(.keycap) else { return nil }
        self = shape
    }

    /// The shape's name: its features' names joined by `+` (`joiner+skinTone`).
    public var description: String {
        Self.features.filter { contains($0.feature) }.map(\.name).joined(separator: "+")
    }

    /// The shape a name gives; nil when a feature is unknown (a cache from another version).
    init?(name: String) {
        var shape: ClusterShape = []
        for part in name.split(separator: "+") {
            guard let feature = Self.features.first(where: { $0.name == part }) else { return nil }
            shape.insert(feature.feature)
        }
        guard !shape.isEmpty else { return nil }
        self = shape
    }

    /// Whether `scalars` are an emoji sequence, as terminals that draw one whole know it: a flag
    /// (two regional indicators), a keycap (a key, VS16, U+20E3), or pictographic emoji joined by
    /// joiners, each with at most a skin tone (on a modifier base) or VS16 right after it, and
    /// tags ending in a cancel tag. Marks with no base before them (`FE0F FE0F`, `🏻🏻`, `👍🏻🏻`,
    /// a joiner at either end) make none: terminals draw those any way but as one cell.
    static func isSequence(_ scalars: [Unicode.Scalar]) -> Bool {
        if scalars.count == 2, scalars.allSatisfy(DisplayWidth.isRegionalIndicator) { return true }
        if let key = scalars.first, key.isASCII {
            return scalars.count == 3 && scalars[1].value == 0xFE0F && scalars[2].value == 0x20E3
                || scalars.count == 2 && scalars[1].value == 0x20E3
        }
        var i = scalars.startIndex
        while true {
            // One pictographic emoji and what may follow it.
            guard i < scalars.endIndex, isPictographic(scalars[i]) else { return false }
            let base = scalars[i]
            i += 1
            if i < scalars.endIndex, (0x1F3FB...0x1F3FF).contains(scalars[i].value) {
                guard base.properties.isEmojiModifierBase else { return false }
                i += 1
            } else if i < scalars.endIndex, scalars[i].value == 0xFE0F {
                i += 1
            }
            if i < scalars.endIndex, (0xE0020...0xE007E).contains(scalars[i].value) {
                while i < scalars.endIndex, (0xE0020...0xE007E).contains(scalars[i].value) { i += 1 }
                guard i < scalars.endIndex, scalars[i].value == 0xE007F else { return false }
                i += 1
            }
            guard i < scalars.endIndex else { return true }
            guard scalars[i].value == 0x200D else { return false }
            i += 1
        }
    }

    /// An emoji that is no part of another's sequence: not a key, regional indicator or modifier.
    private static func isPictographic(_ s: Unicode.Scalar) -> Bool {
        s.value >= 0xA9 && s.properties.isEmoji && !DisplayWidth.isRegionalIndicator(s) && !(0x1F3FB...0x1F3FF).contains(s.value)
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
