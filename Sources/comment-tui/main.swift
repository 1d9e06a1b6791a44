import CommentTUI
#if canImport(Glibc)
import Glibc
#endif

exit(Launcher.main(CommandLine.arguments))
