import ThreadModel

/// Ctrl-Home in a thread whose start is not loaded yet (a big room): the feed goes to the top of
/// what is loaded, and on through each older page as it arrives, until it reaches the post.
extension CommentApp {
    /// To the top, and on to the thread's start while older pages are still to come.
    func seekTop() {
        seeksTop = comments.hasOlder
        feed.scrollToTop()
    }
}
