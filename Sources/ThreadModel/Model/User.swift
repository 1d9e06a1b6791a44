/// A participant of a thread.
public struct User: Hashable, Sendable, Identifiable {
    /// Stable id used by comments' `author`.
    public var id: String
    /// The handle written after `@` in mentions; unique within a thread.
    public var handle: String
    /// The display name.
    public var name: String

    public init(id: String, handle: String, name: String) {
        self.id = id
        self.handle = handle
        self.name = name
    }
}
