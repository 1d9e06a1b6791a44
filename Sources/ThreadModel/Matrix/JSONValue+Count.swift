import Foundation

extension JSONValue {
    /// Whether the JSON text `data` holds more than `limit` values (each array element, object
    /// member and the top-level value counts one), found without parsing it: a scan that keeps
    /// nothing, so a hostile answer is refused before it is turned into a tree many times its size.
    ///
    /// Text that is not JSON is counted all the same; the parser refuses it afterwards.
    package static func holdsMoreValues(than limit: Int, in data: Data) -> Bool {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
            var count = 1
            var index = 0
            var lastStructural: UInt8 = 0
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case quote:
                    // Strings are skipped whole: their commas and brackets are text.
                    index += 1
                    while index < bytes.count, bytes[index] != quote {
                        index += bytes[index] == backslash ? 2 : 1
                    }
                    lastStructural = quote
                case UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "{"):
                    count += 1
                    lastStructural = byte
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    // `[]` and `{}` were counted as holding one value.
                    if lastStructural == UInt8(ascii: "[") || lastStructural == UInt8(ascii: "{") { count -= 1 }
                    lastStructural = byte
                case 0x20, 0x0A, 0x0D, 0x09:
                    break
                default:
                    lastStructural = byte
                }
                if count > limit { return true }
                index += 1
            }
            return false
        }
    }
}
