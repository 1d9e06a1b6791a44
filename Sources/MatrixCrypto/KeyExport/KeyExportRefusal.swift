/// Why a key export file was not read or written, in words a person can act on. Never holds a
/// key's, a passphrase's or the file's bytes.
public struct KeyExportRefusal: Error, Equatable, CustomStringConvertible {
    /// What went wrong ("the passphrase is wrong, or the file was changed").
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }

    /// No `BEGIN MEGOLM SESSION DATA` line: some other file.
    public static let notAKeyFile = KeyExportRefusal(
        "this is not a key export file (it has no \(MegolmKeyExport.header) line)")
    /// The END line is missing, or the data is too short to hold its parts.
    public static let truncated = KeyExportRefusal("the key file is cut short: it ends before its data does")
    /// The data between the lines is not base64.
    public static let notBase64 = KeyExportRefusal("the key file is damaged: its data is not base64")
    /// The MAC does not check: a wrong passphrase and a changed file look the same.
    public static let wrongPassphraseOrChanged = KeyExportRefusal(
        "the passphrase is wrong, or the key file was changed since it was written")
    /// The decrypted data is not the JSON list of sessions the format holds.
    public static let notSessionList = KeyExportRefusal(
        "the key file opened but does not hold a list of room keys")
}
