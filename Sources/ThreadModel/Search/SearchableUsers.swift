/// Users' names and handles folded once (`SearchFolding`), so that each key of a search only
/// compares bytes to find the users it matches.
public final class SearchableUsers {
    private let users: [(id: String, name: [UInt8], handle: [UInt8])]

    public init(_ users: [User]) {
        let folding = SearchFolding()
        self.users = users.map { ($0.id, folding.fold($0.name), folding.fold($0.handle)) }
    }

    /// Ids of the users whose folded name or handle holds `needle`.
    func ids(matching needle: [UInt8]) -> Set<String> {
        var ids = Set<String>()
        for user in users where SearchPattern.contains(user.name, needle) || SearchPattern.contains(user.handle, needle) {
            ids.insert(user.id)
        }
        return ids
    }
}
