/// Home's and the switcher's styles.
extension Theme {
    static let homeHeader = CellStyle(.reverse)
    /// A question waiting for y/n stands out from the header it replaces.
    static let homeQuestion = CellStyle(foreground: .black, background: .yellow)
    static let homeName = CellStyle.plain
    /// A thread with comments not read (or an invite): bold, as mail clients show unread.
    static let homeUnreadName = CellStyle(.bold)
    static let homeUnread = CellStyle(.bold)
    /// Mentions of the reader: the feed's mention colour, reversed into a badge.
    static let homeMentionBadge = CellStyle([.bold, .reverse], foreground: .magenta)
    static let homeMarker = CellStyle(.dim)
    static let homeInvite = CellStyle(.italic, foreground: .green)
    static let homeTyping = CellStyle([.dim, .italic])
}
