import Glibc

/// The C library's names of signals.
enum SignalName {
    /// The readable name of a signal number, e.g. "Segmentation fault" for 11 (`strsignal`).
    static func of(_ signal: Int32) -> String { String(cString: strsignal(signal)) }
}
