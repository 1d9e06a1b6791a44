// Linux calls Swift cannot import as they are: prctl is variadic.
#ifndef COMMENT_TUI_LINUX_SHIM_H
#define COMMENT_TUI_LINUX_SHIM_H

#include <signal.h>
#include <sys/prctl.h>

/// Asks the kernel to send `signal` to this process when its parent dies; 0, or -1 and errno.
static inline int ctui_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

#endif
