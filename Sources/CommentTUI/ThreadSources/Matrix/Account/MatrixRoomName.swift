import Foundation

/// The spec's "Calculating the display name for a room", step 3: a name from the heroes.
enum MatrixRoomName {
    /// The spec asks for at least five heroes where possible.
    static let heroesShown = 5
    /// The name of a room with no one else in it, and no one who left.
    static let empty = "Empty room"

    /// `names` (the heroes' display names, in the server's order) of a room with `memberCount`
    /// joined and invited members, the reader included.
    static func fromHeroes(_ names: [String], memberCount: Int) -> String {
        if memberCount <= 1 {
            // Alone: named after who was there, as the spec's "Empty Room (was Alice)".
            return names.isEmpty ? empty : "\(empty) (was \(list(names, others: 0)))"
        }
        guard !names.isEmpty else { return empty }
        return list(names, others: max(0, memberCount - 1 - names.count))
    }

    /// "A", "A and B", "A, B and C", "A, B and 3 others".
    static func list(_ names: [String], others: Int) -> String {
        var parts = names
        if others > 0 { parts.append(others == 1 ? "1 other" : "\(others) others") }
        guard parts.count > 1, let last = parts.last else { return parts.first ?? "" }
        return parts.dropLast().joined(separator: ", ") + " and " + last
    }
}
