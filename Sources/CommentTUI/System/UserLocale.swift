import Glibc

/// The locale the user's environment asks for (`LANG`, `LC_*`).
enum UserLocale {
    /// Makes the environment's locale the process's, for every category (`setlocale(LC_ALL, "")`).
    static func adopt() { setlocale(LC_ALL, "") }

    /// The current locale's character set, e.g. "UTF-8" or "ANSI_X3.4-1968".
    static var codeset: String { String(cString: nl_langinfo(nl_item(CODESET))) }
}
