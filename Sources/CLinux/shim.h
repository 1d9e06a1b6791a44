// Linux calls Swift cannot import as they are: prctl and syscall are variadic, and glibc
// declares renameat2 only under _GNU_SOURCE.
#ifndef COMMENT_TUI_LINUX_SHIM_H
#define COMMENT_TUI_LINUX_SHIM_H

#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/// Asks the kernel to send `signal` to this process when its parent dies; 0, or -1 and errno.
static inline int ctui_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

/// Renames `from` to `to` (each relative to a directory descriptor) unless `to` exists: 0, or -1
/// and errno (EEXIST when it does; EINVAL where the file system cannot promise it).
static inline int ctui_rename_no_replace(int from_directory, const char *from, int to_directory, const char *to) {
    return (int)syscall(SYS_renameat2, from_directory, from, to_directory, to, 1U /* RENAME_NOREPLACE */);
}

#endif
