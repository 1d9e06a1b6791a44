import ThreadModel

/// Pages over the screen: F1's key table, and the thread's post read whole (the header shows
/// only its first rows).
extension CommentApp {
    /// F1: shows the key page, or closes it.
    func toggleKeyPage() {
        if overlays.showsHelp { return overlays.closePage() }
        show(Pager(.keys, title: "Keys", columns: size.columns, rows: size.rows))
    }

    /// Shows the thread's post whole, laid out as a comment is (Alt-E on the post, a click on
    /// the header's post rows).
    func openPostReader() {
        let thread = comments.thread
        var details = HeaderView.dateText(thread.created)
        if let handle = thread.user(id: thread.author)?.handle { details = "@\(handle) · " + details }
        show(Pager(.post(body: thread.body, handles: comments.handleID), title: thread.title, details: details,
                   columns: size.columns, rows: size.rows))
    }

    /// Whether the post's page is open.
    public var showsPostReader: Bool { overlays.page?.isPostPage ?? false }

    func show(_ page: Pager) {
        // A drag under way on the feed ends here: its release will go to the page.
        if feed.gesture != nil {
            feed.gesture = nil
            feed.handle(.release)
        }
        overlays.open(page)
    }
}
