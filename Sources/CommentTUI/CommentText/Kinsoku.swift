/// Where Japanese and Chinese text may not break (kinsoku, after UAX #14 and JIS X 4051): no
/// row starts with closing punctuation and no row ends with an opening bracket.
///
/// The sets are UAX #14's classes CL, CP, EX, IS and NS (closing brackets and quotes, stops and
/// commas, `!` `?` `:` `;`, iteration marks, the middle dot and wave dash) and OP (opening
/// brackets and quotes), full and half width. Small kana and the prolonged sound mark may start a
/// row (UAX #14's "normal" breaking, as browsers do by default).
enum Kinsoku {
    /// Whether no row may start with `cluster`.
    static func cannotStartRow(_ cluster: DisplayCluster) -> Bool {
        guard let scalar = cluster.text.unicodeScalars.first else { return false }
        return cannotStartRow(scalar: scalar.value)
    }

    /// Whether no row may start with a cluster whose first scalar is `value`.
    static func cannotStartRow(scalar value: UInt32) -> Bool {
        switch value {
        case 0x21, 0x29, 0x2C, 0x2E, 0x3A, 0x3B, 0x3F, 0x5D, 0x7D: return true   // ! ) , . : ; ? ] }
        case 0x2019, 0x201D, 0x203C, 0x2047...0x2049: return true                 // ’ ” ‼ ⁇ ⁈ ⁉
        case 0x3001, 0x3002, 0x3005, 0x3009, 0x300B, 0x300D, 0x300F, 0x3011, 0x3015, 0x3017,
             0x3019, 0x301B, 0x301C, 0x301E, 0x301F, 0x303B: return true          // 、。々〉》」』】〕〗〙〛〜〞〟〻
        case 0x309D, 0x309E, 0x30A0, 0x30FB, 0x30FD, 0x30FE: return true          // ゝゞ゠・ヽヾ
        case 0xFF01, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF3D, 0xFF5D, 0xFF60,
             0xFF61, 0xFF63, 0xFF64, 0xFF65: return true                          // ！）：；？］｝｠ and half-width ｡｣､･
        default: return false
        }
    }

    /// Whether no row may end with `cluster`.
    static func cannotEndRow(_ cluster: DisplayCluster) -> Bool {
        guard let scalar = cluster.text.unicodeScalars.first else { return false }
        return cannotEndRow(scalar: scalar.value)
    }

    /// Whether no row may end with a cluster whose first scalar is `value`.
    static func cannotEndRow(scalar value: UInt32) -> Bool {
        switch value {
        case 0x28, 0x5B, 0x7B, 0x2018, 0x201C: return true                         // ( [ { ‘ “
        case 0x3008, 0x300A, 0x300C, 0x300E, 0x3010, 0x3014, 0x3016, 0x3018, 0x301A, 0x301D: return true
        case 0xFF08, 0xFF3B, 0xFF5B, 0xFF5F, 0xFF62: return true                  // （［｛｟ and half-width ｢
        default: return false
        }
    }

    /// Where a full row of `count` cells (its content from `start`) breaks when `next` would
    /// begin the next row and no other break fits: closing punctuation takes the character
    /// before it along, and an opening bracket at the row's end moves on with what it opens.
    /// Nil: break where the row is full (a row of nothing but such punctuation, or nothing left).
    /// A cell that `joinsPrevious` (a piece of the same character) is never where a row starts.
    static func rowBreak(before next: DisplayCluster, count: Int, from start: Int,
                         cluster: (Int) -> DisplayCluster, joinsPrevious: (Int) -> Bool) -> Int? {
        var b = count
        if cannotStartRow(next) {
            b -= 1
            while b > start, joinsPrevious(b) || cannotStartRow(cluster(b)) { b -= 1 }
        }
        while b - 1 > start, cannotEndRow(cluster(b - 1)) { b -= 1 }
        guard b > start, b < count, !cannotEndRow(cluster(b - 1)) else { return nil }
        return b
    }
}
