/// An append refused because the thread file holds no thread record (`ThreadRecordPresence`):
/// it is empty, cut short or not a thread file, and a comment added to it would belong to no
/// thread a reader opens.
public struct NoThreadRecord: Error, CustomStringConvertible, Sendable {
    /// The thread file, as given.
    public var path: String

    /// The refusal as `post` prints it: the file named, and that nothing was written.
    public var description: String {
        "\(path) has no thread record (it is empty, cut short or not a thread file): nothing was appended"
    }
}
