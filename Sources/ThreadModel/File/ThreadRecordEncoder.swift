import Foundation

/// Writes records as canonical JSON lines: `type` first, a fixed key order, no escaped `/`.
///
/// Written by hand because `JSONEncoder` does not keep key order stable between runs.
public struct ThreadRecordEncoder: Sendable {
    /// Whether controls, bidi and invisible format characters are written as `\u` escapes
    /// (`appendString`): for a file printed where a person may read it (`export`).
    public let escapesInvisibles: Bool

    /// An encoder; `escapesInvisibles` for output a terminal may show (a thread file's own
    /// lines keep such characters as UTF-8: readers decode both the same).
    public init(escapesInvisibles: Bool = false) { self.escapesInvisibles = escapesInvisibles }

    /// A record as one line of UTF-8, ending in `\n`.
    public func encode(_ record: ThreadRecord) -> [UInt8] {
        var out: [UInt8] = []
        append(record, to: &out)
        return out
    }

    /// Appends a record's line, ending in `\n`, to a buffer (for streaming many records).
    public func append(_ record: ThreadRecord, to out: inout [UInt8]) {
        switch record {
        case .thread(let header):
            begin("thread", to: &out)
            field("id", header.id, to: &out)
            field("title", header.title, to: &out)
            field("author", header.author, to: &out)
            field("created", Timestamp.format(header.created), to: &out)
            field("body", header.body, to: &out)
        case .user(let user):
            begin("user", to: &out)
            field("id", user.id, to: &out)
            field("handle", user.handle, to: &out)
            field("name", user.name, to: &out)
        case .comment(let comment):
            begin("comment", to: &out)
            field("id", comment.id, to: &out)
            field("author", comment.author, to: &out)
            field("created", Timestamp.format(comment.created), to: &out)
            field("body", comment.body, to: &out)
            if let edited = comment.edited { field("edited", Timestamp.format(edited), to: &out) }
        case .change(let change):
            switch change.kind {
            case .edit: begin("edit", to: &out)
            case .delete: begin("delete", to: &out)
            }
            field("comment", change.comment, to: &out)
            field("author", change.author, to: &out)
            field("created", Timestamp.format(change.created), to: &out)
            if case .edit(let body) = change.kind { field("body", body, to: &out) }
        case .reaction(let reaction):
            begin(reaction.recordType, to: &out)
            field("comment", reaction.comment, to: &out)
            field("author", reaction.author, to: &out)
            field("created", Timestamp.format(reaction.created), to: &out)
            field("key", reaction.key, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        out.append(UInt8(ascii: "\n"))
    }

    private func begin(_ type: String, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":"#.utf8)
        Self.appendString(type, to: &out, escapingInvisibles: escapesInvisibles)
    }

    private func field(_ key: String, _ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        Self.appendString(key, to: &out, escapingInvisibles: escapesInvisibles)
        out.append(UInt8(ascii: ":"))
        Self.appendString(value, to: &out, escapingInvisibles: escapesInvisibles)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string literal: quotes, backslashes and C0 controls escaped; everything else as
    /// UTF-8, or with `escapingInvisibles` as `\u` escapes where the client would show a
    /// placeholder (`VisibleControls`: DEL, C1, bidi controls and isolates, line separators,
    /// invisible format characters, joiners outside a cluster they build, tags outside a tag
    /// flag). JSON's escapes lose nothing (every reader decodes the same string), so data
    /// meant for programs can still be printed on a terminal without reordering or hiding text.
    public static func appendString(_ string: String, to out: inout [UInt8], escapingInvisibles: Bool = false) {
        if escapingInvisibles, string.utf8.contains(where: { $0 >= 0x7F }) {
            return appendEscapingInvisibles(string, to: &out)
        }
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 { appendByte(byte, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// One byte of a string literal's UTF-8: quotes, backslashes and C0 controls escaped.
    @inline(__always)
    private static func appendByte(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
        case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
        case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
        case 0x00..<0x20:
            out.append(contentsOf: Array(#"\u00"#.utf8))
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0xF)])
        default: out.append(byte)
        }
    }

    /// `appendString` for text with non-ASCII scalars, escaping the invisible ones.
    private static func appendEscapingInvisibles(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var context = VisibleControls.Context()
        for scalar in string.unicodeScalars {
            let placeholder = scalar.value < 0x7F ? nil : VisibleControls.placeholder(for: scalar, in: context)
            context = context.after(placeholder ?? scalar)
            if placeholder != nil {
                UTF16.encode(scalar) { unit in
                    out.append(UInt8(ascii: "\\"))
                    out.append(UInt8(ascii: "u"))
                    for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int(unit >> UInt16(shift)) & 0xF]) }
                }
            } else {
                UTF8.encode(scalar) { appendByte($0, to: &out) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
