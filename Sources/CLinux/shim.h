// Linux calls Swift cannot import as they are: prctl and syscall are variadic, glibc declares
// renameat2 only under _GNU_SOURCE and has no pidfd wrappers, and a signal handler must be C.
#ifndef COMMENT_TUI_LINUX_SHIM_H
#define COMMENT_TUI_LINUX_SHIM_H

#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <termios.h>
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

/// A descriptor naming process `pid` itself (syscall is variadic): signals sent through it never
/// reach a process that reused the pid after it ended. The descriptor, or -1 and errno.
static inline int ctui_pidfd_open(pid_t pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0U);
}

/// Sends `signal` to the process `pidfd` names: 0, or -1 and errno (ESRCH when it has ended).
static inline int ctui_pidfd_send_signal(int pidfd, int signal) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, signal, (void *)0, 0U);
}

// What the echo guard's handler puts back: the terminal's settings from before echo went off.
// C, so the handler touches no Swift runtime (lazy globals, exclusivity checks) in a signal.
// Kept in a function: Swift's importer emits a header's functions, not its static variables.
struct ctui_echo_guard_state {
    struct termios settings;
    volatile sig_atomic_t fd;
};

static struct ctui_echo_guard_state *ctui_echo_guard_state(void) {
    static struct ctui_echo_guard_state state = { .fd = -1 };
    return &state;
}

/// Puts the saved settings back and ends the process as `signal` would have. Async-signal-safe
/// calls only: tcsetattr, write, sigaction, raise.
static void ctui_echo_guard_handler(int signal) {
    int saved = errno;
    int fd = ctui_echo_guard_state()->fd;
    if (fd >= 0) {
        (void)tcsetattr(fd, TCSANOW, &ctui_echo_guard_state()->settings);
        // The shell's prompt starts on a line of its own, not after the password prompt.
        (void)!write(fd, "\n", 1);
    }
    struct sigaction action = {0};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, 0);
    errno = saved;
    // Blocked while this handler runs: delivered, with its default action, as it returns.
    raise(signal);
}

/// Puts `settings` back on `fd` if `signal` arrives, unless the process ignores it (`nohup`);
/// `others` (`count` of them) wait while the handler runs. `previous` gets the action it had.
/// 1 when installed, 0 when left ignored, -1 and errno.
static inline int ctui_echo_guard_install(int fd, const struct termios *settings, int signal, const int *others, int count, struct sigaction *previous) {
    if (sigaction(signal, 0, previous) != 0) return -1;
    if (previous->sa_handler == SIG_IGN) return 0;
    ctui_echo_guard_state()->settings = *settings;
    ctui_echo_guard_state()->fd = fd;
    struct sigaction action = {0};
    action.sa_handler = ctui_echo_guard_handler;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < count; i++) sigaddset(&action.sa_mask, others[i]);
    action.sa_flags = SA_RESTART;
    return sigaction(signal, &action, 0) == 0 ? 1 : -1;
}

/// Gives `signal` back `previous` (from ctui_echo_guard_install) and forgets the descriptor.
static inline void ctui_echo_guard_remove(int signal, const struct sigaction *previous) {
    sigaction(signal, previous, 0);
    ctui_echo_guard_state()->fd = -1;
}

#endif
