import Glibc

// Glibc's Swift module hides `wcwidth` (it sits behind _XOPEN_SOURCE in <wchar.h>), and only
// Terminal/ may import the ncurses shim that could expose it; so it is bound here by name.
@_silgen_name("wcwidth")
private func c_wcwidth(_ character: Int32) -> Int32

/// The C library's character widths: what ncurses uses to place every cell.
enum CharacterWidth {
    /// The C library's `wcwidth` of a scalar: -1 unprintable, 0 combining, 1 or 2 columns.
    static func libc(_ scalar: Unicode.Scalar) -> Int {
        _ = localeReady
        return Int(c_wcwidth(Int32(bitPattern: scalar.value)))
    }

    // `wcwidth` answers -1 for every non-ASCII character in the C locale. The app refuses to
    // start without a UTF-8 locale; library users and tests get C.UTF-8 if none is set.
    private static let localeReady: Bool = {
        if c_wcwidth(0x4E00) != 2 { setlocale(LC_CTYPE, "C.UTF-8") }
        return true
    }()
}
