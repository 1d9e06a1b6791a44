import ThreadModel

/// `m.fully_read` looked for in older pages, as they come newest first: it may be on any event
/// (a reaction, an edit, a join), so it is found among the page's events, and stands after the
/// newest comment at or before it (nil: above every comment of the page reported).
struct OlderReadMarker {
    /// The event still looked for; nil once found, or when nothing is looked for.
    private(set) var eventID: String?
    /// Found, and above every comment of the pages read so far: the next older comment is it.
    private var abovePages = false
    /// Whether it was found in the pages read.
    private(set) var isFound = false
    /// The comment it stands after, once found; nil while above every comment read.
    private(set) var commentID: String?

    init(eventID: String?) { self.eventID = eventID }

    /// Looks at one more page (older than those before): `events` newest first, `comments`
    /// oldest first.
    mutating func look(in events: [String], comments: [Comment]) {
        if abovePages {
            // Found in a newer page with no comment before it there: the newest of these is it.
            guard let newest = comments.last else { return }
            commentID = newest.id
            abovePages = false
            return
        }
        guard let wanted = eventID, let at = events.firstIndex(of: wanted) else { return }
        eventID = nil
        isFound = true
        let atOrBefore = Set(events[at...])
        commentID = comments.last { atOrBefore.contains($0.id) }?.id
        abovePages = commentID == nil
    }
}
