import ThreadModel

/// The line a reply opens with in the feed: who wrote what it answers, and that comment's first
/// line (`↪ Bo: the question`), cut to one row. A click on it, or Alt-J, goes to that comment.
struct ReplyQuote: Equatable {
    /// The author's display name; nil while the comment is not known here yet.
    var author: String?
    /// The first line of what it answers (Markdown), or a note in its place.
    var line: String

    /// The quote of `target`, written by `author`.
    init(target: Comment, author: String) {
        self.author = author
        let lines = target.body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // Its own words, not a quote it opens with (an Alt-R reply starts with one).
        let own = lines.first { !$0.hasPrefix(">") } ?? lines.first.map { String($0.drop { $0 == ">" || $0 == " " }) }
        line = own ?? ""
    }

    /// A note in place of the quote (the comment is being fetched, or could not be).
    init(note: String) {
        author = nil
        line = "*" + note + "*"
    }

    /// The quote as Markdown within `width` columns: the line is cut with `…` where it is longer.
    func fitted(width: Int) -> String {
        // One row: a name's line breaks are spaces here (its other controls show as placeholders).
        let name = author.map { "**" + MatrixHTMLReader.markdown(fromPlainText: $0.replacingOccurrences(of: "\n", with: " "), isReply: false) + "**: " } ?? ""
        var room = max(4, width - 2 - DisplayWidth.width(of: name))
        var cut = ""
        for character in line {
            let w = DisplayWidth.width(of: String(character))
            if w > room { cut += "…"; break }
            room -= w
            cut.append(character)
        }
        return "↪ " + name + cut
    }
}
