import Foundation
import ThreadModel

/// What follows an account's one sync (`MatrixAccountSync`): an open room's source, the list
/// of the account's rooms. Called on the sync's thread, never under its lock.
public protocol MatrixSyncListener: AnyObject {
    /// One sync answer, whole (every room's slice, the account data), in the order the server
    /// gave them. An error thrown stops nothing: the sync and the other listeners go on, and the
    /// listener, which keeps its own position, catches up by itself.
    func accountSynced(_ answer: JSONValue) throws
    /// The connection's state changed (after the answer that made it live, if one did).
    func accountConnectionChanged(_ state: ConnectionState)
    /// The sync was refused for a reason other than the network (a redirect, a session ended):
    /// once per kind until an answer comes.
    func accountSyncFailed(_ error: MatrixError)
}

extension MatrixSyncListener {
    public func accountConnectionChanged(_ state: ConnectionState) {}
    public func accountSyncFailed(_ error: MatrixError) {}
}
