import Foundation

/// A JSON value as the Client-Server API sends it: events' contents vary by type, so they are
/// read by key path rather than decoded into a struct per type. Sendable, unlike
/// `JSONSerialization`'s `Any`, so it crosses from the sync thread to the app's.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object; nil for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The string, if this is one.
    public var string: String? { if case .string(let s) = self { s } else { nil } }
    /// The number as an integer, if this is a whole number in range.
    public var int: Int? {
        guard case .number(let n) = self, n.rounded() == n, abs(n) < 9e15 else { return nil }
        return Int(n)
    }
    /// The elements, if this is an array.
    public var array: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The members, if this is an object.
    public var object: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }
    /// The value, if this is a boolean.
    public var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
}

extension JSONValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Booleans first: a number never decodes as one, but `true` would as 1 in some decoders.
        if container.decodeNil() { self = .null }
        else if let b = try? container.decode(Bool.self) { self = .bool(b) }
        else if let n = try? container.decode(Double.self) { self = .number(n) }
        else if let s = try? container.decode(String.self) { self = .string(s) }
        else if let a = try? container.decode([JSONValue].self) { self = .array(a) }
        else if let o = try? container.decode([String: JSONValue].self) { self = .object(o) }
        // Well-formed JSON (the decoder checked the whole text first) that Foundation cannot
        // turn into a value: a number past Double's range (invalid UTF-8 and lone surrogates
        // are repaired before decoding). Dropped, so one such value in one event never makes
        // the whole answer unreadable.
        else { self = .null }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .number(let n):
            if n.rounded() == n, abs(n) < 9e15 { try container.encode(Int(n)) } else { try container.encode(n) }
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }

    /// Parses JSON text; throws when it is not JSON. Invalid UTF-8 and lone surrogate escapes
    /// are repaired first (`replacingInvalidUTF8`, `replacingLoneSurrogates`: U+FFFD in their
    /// place), and a number Foundation cannot represent reads as null.
    public init(parsing data: Data) throws {
        let repaired = Self.replacingLoneSurrogates(in: Self.replacingInvalidUTF8(in: data))
        self = try JSONDecoder().decode(JSONValue.self, from: repaired)
    }

    /// JSON text, keys sorted so equal values give equal bytes.
    public func serialized() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)) ?? Data("null".utf8)
    }

    /// Converts what `JSONSerialization` produced (the message content builder's dictionaries).
    public init(foundation value: Any) {
        guard JSONSerialization.isValidJSONObject([value]),
              let data = try? JSONSerialization.data(withJSONObject: [value]),
              case .array(let wrapped)? = try? JSONValue(parsing: data), let first = wrapped.first else {
            self = .null
            return
        }
        self = first
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
