/// Punycode (RFC 3492): a Unicode label as ASCII, the part after `xn--` in a domain name.
enum Punycode {
    // The parameters RFC 3492 gives for IDNA (section 5).
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80
    /// Larger intermediate values mean hostile input: decoding fails instead of overflowing.
    private static let maxInt = Int(Int32.max)

    /// The Punycode form of `text` (without `xn--`): its ASCII characters, a `-` if there were
    /// any, then the rest as deltas. Nil on overflow (far beyond any domain label).
    static func encode(_ text: String) -> String? {
        let input = text.unicodeScalars.map { Int($0.value) }
        var output = String(String.UnicodeScalarView(text.unicodeScalars.filter(\.isASCII)))
        let basicCount = output.unicodeScalars.count
        if basicCount > 0 { output += "-" }
        var n = initialN, delta = 0, bias = initialBias, handled = basicCount
        while handled < input.count {
            // The smallest code point not yet handled.
            guard let next = input.filter({ $0 >= n }).min(), (next - n) <= (maxInt - delta) / (handled + 1) else { return nil }
            delta += (next - n) * (handled + 1)
            n = next
            for code in input {
                if code < n {
                    delta += 1
                    guard delta <= maxInt else { return nil }
                }
                guard code == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = threshold(k, bias)
                    if q < t { break }
                    output.unicodeScalars.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.unicodeScalars.append(digit(q))
                bias = adapt(delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return output
    }

    /// The Unicode text a Punycode string (without `xn--`) stands for; nil when it is not
    /// valid Punycode (a non-ASCII character, a bad digit, overflow, a code point out of range).
    static func decode(_ text: String) -> String? {
        let input = Array(text.utf8)
        guard input.allSatisfy({ $0 < 0x80 }) else { return nil }
        var output: [UInt32] = []
        var index = 0
        // Everything before the last delimiter is basic code points, copied as they are.
        if let delimiter = input.lastIndex(of: UInt8(ascii: "-")) {
            output = input[..<delimiter].map(UInt32.init)
            index = delimiter + 1
        }
        var n = initialN, i = 0, bias = initialBias
        while index < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard index < input.count, let digit = digitValue(input[index]) else { return nil }
                index += 1
                guard digit <= (maxInt - i) / w else { return nil }
                i += digit * w
                let t = threshold(k, bias)
                if digit < t { break }
                guard w <= maxInt / (base - t) else { return nil }
                w *= base - t
                k += base
            }
            let count = output.count + 1
            bias = adapt(i - oldI, count: count, first: oldI == 0)
            guard i / count <= maxInt - n else { return nil }
            n += i / count
            i %= count
            guard Unicode.Scalar(UInt32(n)) != nil else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        var result = ""
        for value in output { result.unicodeScalars.append(Unicode.Scalar(value)!) }
        return result
    }

    private static func threshold(_ k: Int, _ bias: Int) -> Int {
        k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
    }

    /// The bias for the next delta (RFC 3492, section 6.1).
    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    /// 0–25 as `a`–`z`, 26–35 as `0`–`9`.
    private static func digit(_ value: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26))
    }

    /// A digit's value: letters in either case, then digits.
    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 26
        default: nil
        }
    }
}
