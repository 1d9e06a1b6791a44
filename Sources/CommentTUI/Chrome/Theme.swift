/// The client's styles, in one place.
public enum Theme {
    public static let title = CellStyle(.bold)
    static let dim = CellStyle(.dim)
    public static let authorName = CellStyle(.bold, foreground: .cyan)
    public static let handle = CellStyle(foreground: .cyan)
    public static let ownName = CellStyle(.bold, foreground: .green)
    public static let rule = CellStyle(.dim)
    public static let statusBar = CellStyle(.reverse)
    public static let statusError = CellStyle([.reverse, .bold], foreground: .red)
    static let prompt = CellStyle(.bold, foreground: .green)
    public static let body = CellStyle.plain
    public static let notice = CellStyle(.bold)
    public static let problem = CellStyle(.dim, foreground: .red)
    /// A sender's changed identity on their comments: loud, as a reason to doubt the text.
    public static let identityChanged = CellStyle([.reverse, .bold], foreground: .red)
    /// A verified sender's mark: quiet. An unverified sender's: small, a shade louder.
    static let senderVerified = CellStyle(.dim, foreground: .green)
    static let senderUnverified = CellStyle(.dim, foreground: .yellow)
    // Code stands on a dark grey where the terminal has 256 colours (the default background elsewhere).
    public static let code = CellStyle(foreground: .yellow, background: .palette(235))
    public static let link = CellStyle(.underline, foreground: .blue)
    static let linkHost = CellStyle(.dim)
    public static let mention = CellStyle(.bold, foreground: .magenta)
    static let mentionOfMe = CellStyle([.bold, .reverse], foreground: .magenta)
    public static let spoiler = CellStyle(.dim)
    /// A spoiler in the writer's own draft: shown, but marked as one.
    public static let composerSpoiler = CellStyle([.dim, .underline])
    static let quoteBar = CellStyle(.dim)
    static let quoteText = CellStyle(foreground: .gray)
    public static let listMarker = CellStyle(.bold)
    static let headingMarker = CellStyle(.dim)
    static let expandMarker = CellStyle([.dim, .underline])
    /// Ruby readings: a terminal has no small type, so dim stands in for it.
    public static let rubyReading = CellStyle(.dim)
    /// A search's query where it shows in a comment: reverse video, as `less` marks a match,
    /// seen in eight colours and with none (`NO_COLOR`, a monochrome terminal) alike.
    public static let searchMatch = CellStyle([.reverse, .bold])
    /// A reaction's count; the reader's own reactions stand in reverse video, key and count.
    public static let reactionCount = CellStyle(.dim)
    public static let ownReaction = CellStyle(.reverse)
    public static let selectionGutter = CellStyle(.bold, foreground: .yellow)
    public static let unreadDivider = CellStyle(foreground: .red)
    // The scrollbar scrolls with the feed region and is repaired after every step; in the plain
    // style a repair is a cursor move and a glyph, with no attribute changes around it.
    public static let scrollTrack = CellStyle()
    public static let scrollThumb = CellStyle()
    public static let newMarker = CellStyle(.bold, foreground: .black, background: .yellow)
    // The list stands over the feed in colours chosen as pairs from the eight every colour
    // terminal has: readable on dark and light themes alike, and never the feed's own look.
    public static let pickerRow = CellStyle(foreground: .black, background: .white)
    public static let pickerTitle = CellStyle(foreground: .white, background: .blue)
    public static let pickerHighlight = CellStyle(foreground: .white, background: .magenta)
    public static let eventPanel = CellStyle(background: .blue)
}
