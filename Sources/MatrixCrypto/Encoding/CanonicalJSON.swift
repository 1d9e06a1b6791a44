import ThreadModel

/// Matrix's canonical JSON (Appendices, "Canonical JSON"), the bytes a signature covers: no
/// insignificant whitespace, object keys in code point order, strings with the shortest
/// escapes and UTF-8 otherwise, and only integers in [-(2^53)+1, 2^53-1].
///
/// `JSONValue` objects are Swift dictionaries keyed by `String`, and Swift strings compare
/// under Unicode canonical equivalence: two keys that differ only in normalization (a
/// precomposed "é" and "e" + combining acute) are one key by the time an object reaches here,
/// so the other's value is already gone. That fails safe: the bytes written are not the bytes
/// signed, so such an object's signature does not check; it never makes a forged one check.
public enum CanonicalJSON {
    /// What cannot be made canonical: a number with a fraction or out of range.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not canonical JSON: \(reason)" }
    }

    /// The canonical bytes of `value`.
    public static func encode(_ value: JSONValue) throws -> [UInt8] {
        var out = [UInt8]()
        try write(value, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8]) throws {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .number(let n):
            let limit = 9_007_199_254_740_991.0
            guard n.rounded() == n, abs(n) <= limit else { throw Refusal(reason: "the number \(n) is not an integer in range") }
            out += Array(String(Int64(n)).utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // UTF-8 byte order is code point order.
            let keys = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                try write(members[key]!, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 0x08: out += [92, UInt8(ascii: "b")]
            case 0x0c: out += [92, UInt8(ascii: "f")]
            case 0x0a: out += [92, UInt8(ascii: "n")]
            case 0x0d: out += [92, UInt8(ascii: "r")]
            case 0x09: out += [92, UInt8(ascii: "t")]
            case 0x00 ..< 0x20: out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
