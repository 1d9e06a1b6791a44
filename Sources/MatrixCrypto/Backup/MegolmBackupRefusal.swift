/// Why a key backup, or something read from it, was refused: in words a person can act on,
/// never key bytes.
public struct MegolmBackupRefusal: Error, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
