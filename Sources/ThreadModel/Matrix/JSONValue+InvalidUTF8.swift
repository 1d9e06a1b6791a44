import Foundation

extension JSONValue {
    /// `data` with each invalid UTF-8 sequence replaced by U+FFFD, the replacement character;
    /// `data` as it is when it is valid UTF-8 (the usual case).
    ///
    /// JSON is UTF-8, but a server may pass on what its senders wrote, and Foundation's decoder
    /// refuses a string holding invalid bytes: read as null, its whole text was lost for a byte.
    /// Repaired, the rest of the string stays. One validating pass, and one decoding pass only
    /// when it found something to repair.
    package static func replacingInvalidUTF8(in data: Data) -> Data {
        let isValid = data.withUnsafeBytes { String(validating: $0, as: UTF8.self) != nil }
        if isValid { return data }
        return Data(String(decoding: data, as: UTF8.self).utf8)
    }
}
