/// A thread whose comments may be posts of their own (a Matrix room's thread roots), opened as
/// threads: Enter on a root opens its post.
public protocol PostOpening: AnyObject {
    /// The root event of the post the comment starts, if it is a post's root; nil otherwise (or
    /// inside a post, whose comments start none).
    func postRoot(ofComment id: String) -> String?
    /// Whether this thread is itself a post (Esc goes back to its room).
    var isPost: Bool { get }
}
