/// A stored record that no longer reads as its collection's type: its JSON does not decode, or
/// the value refuses it (an `OlmAccount` whose keys do not hold together). Names the collection
/// and the record's id, never its bytes.
///
/// The store keeps the record as it is, so reading it throws this every time until it is
/// replaced or removed. What the client should do: say so in the log by collection and id; for
/// a record it can do without (a session, a device list) remove it and carry on as if it had
/// never been stored (a session is set up again, a list asked for again); for the Olm account,
/// stop and tell the person, since a new account is a new identity that others must verify
/// again; never overwrite it silently.
public struct CryptoStoreUnreadableRecord: Error, Equatable, CustomStringConvertible {
    /// The collection's name.
    public let collection: String
    /// The record's id in it.
    public let id: String
    /// The type it should have read as.
    public let type: String

    public var description: String { "the stored record \(id) of \(collection) does not read as \(type)" }
}
