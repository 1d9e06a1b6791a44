import ThreadModel

/// An indexed thread file is the feed's store: comments decoded on demand by position.
extension ThreadIndex: CommentStore {}
