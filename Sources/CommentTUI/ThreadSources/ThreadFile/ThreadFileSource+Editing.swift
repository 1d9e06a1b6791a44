import ThreadModel

/// A thread file's edits and deletions: a record appended under the file's lock.
extension ThreadFileSource: CommentEditing {
    /// 50 tries of 20 ms: about a second.
    static let changeLockTries = 50

    /// Appends the change's record at once (fsynced): it is small, and the append either
    /// lands or fails here, so it is never lost nor written twice. The lock is waited for about
    /// a second at most (another program may hold it for long: the screen must not wait), then
    /// it fails and the reader tries again. Followed, the record comes back from
    /// `takeUpdates()` as `.commentChanged`, which the app has applied already.
    public func change(_ change: CommentChange, of comment: Comment) -> SendFailure? {
        do {
            if case .edit(let body) = change.kind { try ThreadFileLimits.checkBody(body) }
            try ThreadFileWriter(path: path, lockTries: Self.changeLockTries).append([.change(change)])
            return nil
        } catch let error as OverLimit {
            return SendFailure(.tooLarge, "\(error)")
        } catch {
            return SendFailure(.notWritable, "\(error)")
        }
    }
}
