import Foundation

/// The reaction picker: opened with Alt-K on the selected comment, it offers the reader's recent
/// keys first, then a few defaults, each under a digit, and takes a typed emoji or `:shortcode:`.
struct ReactionPicker {
    /// The comment reacted to.
    let commentID: String
    /// What the reader typed (an emoji, a `:shortcode:`).
    private(set) var query = ""
    /// The keys offered, under digits 1…: recent first, then the defaults, each once.
    let choices: [String]

    static let defaults = ["👍", "❤️", "😂", "🎉", "👀"]
    /// The most keys offered (one digit each).
    static let maxChoices = 9
    /// The most characters typed: a key, not a message.
    static let longestQuery = 32
    /// The longest key in UTF-8 bytes, as rooms keep them.
    static let longestKeyBytes = 256

    init(commentID: String, recent: [String]) {
        self.commentID = commentID
        var seen = Set<String>()
        choices = Array((recent + Self.defaults).filter { seen.insert($0).inserted }.prefix(Self.maxChoices))
    }

    /// Types a character; a digit picks a choice while nothing is typed: the choice then.
    mutating func type(_ character: Character) -> String? {
        if query.isEmpty, let digit = character.wholeNumberValue, character.isASCII, (1...choices.count).contains(digit) {
            return choices[digit - 1]
        }
        if query.count < Self.longestQuery { query.append(character) }
        return nil
    }

    mutating func deleteBackward() { _ = query.popLast() }

    /// A paste goes into the query (never picks), its control characters dropped, cut at the longest.
    mutating func paste(_ text: String) {
        let printable = text.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } }
        query += printable.prefix(max(0, Self.longestQuery - query.count))
    }

    /// What Enter reacts with: the typed key (a `:shortcode:` as its emoji), the first choice
    /// when nothing is typed; or why it cannot.
    var chosen: Result<String, PickerRefusal> {
        let typed = query.trimmingCharacters(in: .whitespaces)
        if typed.isEmpty { return choices.first.map { .success($0) } ?? .failure(PickerRefusal("type an emoji")) }
        if let emoji = ReactionShortcodes.emoji(for: typed) { return .success(emoji) }
        if typed.hasPrefix(":"), typed.hasSuffix(":"), typed.count > 2 { return .failure(PickerRefusal("no emoji is called \(typed)")) }
        // What a room keeps (`MatrixReactions.longestKey`): a longer key would be sent and never counted.
        if typed.utf8.count > Self.longestKeyBytes { return .failure(PickerRefusal("a reaction is one emoji or a short word")) }
        return .success(typed)
    }

    /// Why Enter picked nothing.
    struct PickerRefusal: Error, Equatable {
        var message: String
        init(_ message: String) { self.message = message }
    }
}
