import ScrollEngine
import ThreadModel

/// The @mention list's index, built off the loop's thread (`MentionIndexBuilder`): what the loop
/// polls for it and takes when it lands.
extension CommentApp {
    /// Readable when the thread's mention index landed; nil when builds run in place.
    public var mentionIndexReady: FileDescriptor? { mentions.builder.ready }

    /// Takes the mention index that landed (the loop calls this when `mentionIndexReady` is
    /// readable), at `time` when given: installed if it is for the users now, and a list
    /// opened without it ranks again.
    public func mentionIndexLanded(at time: ScrollInstant? = nil) {
        if let time { advance(to: time) }
        mentions.indexLanded()
        prepare()
    }
}
