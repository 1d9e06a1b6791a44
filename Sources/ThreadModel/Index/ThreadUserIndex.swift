import Foundation

/// `post`'s memory of a thread file's users: who they were up to an offset, kept in a state file
/// (`<file>-<hash>.users`) so that the next post reads only the lines appended since, not the file.
///
/// Only a cache: it is used while the file is the same one (device and inode) and still holds,
/// at its start and just before the offset, the bytes it held then; otherwise the file is read
/// whole again. One line per user (`key`, id, handle, name, tab-separated and escaped), looked up
/// by scanning bytes, so a post to a thread of 10,000 users decodes one user, not all of them.
struct ThreadUserIndex {
    /// Which file and how far: the first line of the state file.
    struct Mark: Equatable {
        var device: UInt64
        var inode: UInt64
        /// Where the lines not yet read start (after the last complete line read).
        var offset: Int
        /// The file's first bytes (up to `edgeBytes`): the thread record, with its random id.
        var head: [UInt8]
        /// The bytes just before `offset` (up to `edgeBytes`).
        var tail: [UInt8]
    }

    static let edgeBytes = 64
    private static let magic = "comment-tui users 1"

    let mark: Mark
    /// The user lines, as stored.
    private let lines: ArraySlice<UInt8>

    private init(mark: Mark, lines: ArraySlice<UInt8>) {
        self.mark = mark
        self.lines = lines
    }

    /// The index in `bytes` (a state file), or nil when they are not one.
    init?(bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return nil }
        let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 8, fields[0...2].joined(separator: " ") == Self.magic,
              let device = UInt64(fields[3]), let inode = UInt64(fields[4]), let offset = Int(fields[5]),
              let head = Self.bytes(hex: fields[6]), let tail = Self.bytes(hex: fields[7]) else { return nil }
        self.init(mark: Mark(device: device, inode: inode, offset: offset, head: head, tail: tail), lines: bytes[(newline + 1)...])
    }

    /// The state file for `table`, read from a file up to `mark`.
    static func encode(_ table: ThreadUserTable, mark: Mark) -> [UInt8] {
        var out = header(mark)
        for user in table.sortedUsers {
            for (n, field) in [user.handle.lowercased(), user.id, user.handle, user.name].enumerated() {
                if n > 0 { out.append(0x09) }
                appendEscaped(field, to: &out)
            }
            out.append(0x0A)
        }
        return out
    }

    private static func header(_ mark: Mark) -> [UInt8] {
        Array("\(magic) \(mark.device) \(mark.inode) \(mark.offset) \(hex(mark.head)) \(hex(mark.tail))\n".utf8)
    }

    /// The mark of an open file read up to `offset` (a line start), or nil when it will not read.
    static func mark(of file: FileDescriptor, at offset: Int) -> Mark? {
        guard let identity = try? file.identity(),
              let head = try? file.read(at: 0, count: min(edgeBytes, offset)),
              let tail = try? file.read(at: offset - min(edgeBytes, offset), count: min(edgeBytes, offset)) else { return nil }
        return Mark(device: identity.device, inode: identity.inode, offset: offset, head: head, tail: tail)
    }

    /// Whether the index describes `file` as it is now (the same file, grown or not, never rewritten).
    func fits(_ file: FileDescriptor) -> Bool {
        guard let size = try? file.size(), mark.offset <= size else { return false }
        return Self.mark(of: file, at: mark.offset) == mark
    }

    /// The user who owns a handle (ignoring case), if any.
    func user(handle: String) -> User? {
        var key: [UInt8] = []
        Self.appendEscaped(handle.lowercased(), to: &key)
        var start = lines.startIndex
        while start < lines.endIndex {
            let end = lines[start...].firstIndex(of: 0x0A) ?? lines.endIndex
            let line = lines[start..<end]
            if line.count > key.count, line[start + key.count] == 0x09, line.starts(with: key) {
                return Self.decodeUser(line)
            }
            start = end + 1
        }
        return nil
    }

    /// Every user, as the table the file's rule builds.
    func table() -> ThreadUserTable? {
        var users: [User] = []
        for line in lines.split(separator: 0x0A) {
            guard let user = Self.decodeUser(line) else { return nil }
            users.append(user)
        }
        return ThreadUserTable(users: users)
    }

    /// The same users, read from the file up to a later mark (no user records came between).
    func moved(to mark: Mark) -> [UInt8] {
        Self.header(mark) + lines
    }

    private static func decodeUser(_ line: ArraySlice<UInt8>) -> User? {
        let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map(unescape)
        guard fields.count == 4 else { return nil }
        return User(id: fields[1], handle: fields[2], name: fields[3])
    }

    private static func appendEscaped(_ text: String, to out: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x5C: out += [0x5C, 0x5C]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            default: out.append(byte)
            }
        }
    }

    private static func unescape(_ field: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var escaping = false
        for byte in field {
            if escaping {
                out.append(byte == UInt8(ascii: "t") ? 0x09 : byte == UInt8(ascii: "n") ? 0x0A : byte)
                escaping = false
            } else if byte == 0x5C {
                escaping = true
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes<S: StringProtocol>(hex text: S) -> [UInt8]? {
        if text == "-" { return [] }
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        for pair in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[pair..<pair + 2], as: UTF8.self), radix: 16) else { return nil }
            out.append(byte)
        }
        return out
    }
}
