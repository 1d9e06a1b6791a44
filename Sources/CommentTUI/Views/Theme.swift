/// The client's styles, in one place.
public enum Theme {
    public static let title = CellStyle(.bold)
    public static let dim = CellStyle(.dim)
    public static let authorName = CellStyle(.bold, foreground: .cyan)
    public static let handle = CellStyle(foreground: .cyan)
    public static let ownName = CellStyle(.bold, foreground: .green)
    public static let rule = CellStyle(.dim)
    public static let statusBar = CellStyle(.reverse)
    public static let statusError = CellStyle([.reverse, .bold], foreground: .red)
    public static let prompt = CellStyle(.bold, foreground: .green)
    public static let body = CellStyle.plain
    public static let notice = CellStyle(.bold)
    public static let problem = CellStyle(.dim, foreground: .red)
}
