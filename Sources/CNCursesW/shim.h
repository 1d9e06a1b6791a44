// The only C surface comment-tui sees of ncurses. Swift 6 cannot import macros that
// expand to expressions, nor touch mutable globals like stdscr/LINES/COLS/ESCDELAY
// safely, so this header re-exports them as small inline functions and constants.
#ifndef COMMENT_TUI_NCURSES_SHIM_H
#define COMMENT_TUI_NCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <stdio.h>
#include <ncursesw/curses.h>

static inline WINDOW *ctui_stdscr(void) { return stdscr; }
static inline int ctui_lines(void) { return LINES; }
static inline int ctui_cols(void) { return COLS; }
static inline int ctui_color_pairs(void) { return COLOR_PAIRS; }
static inline int ctui_colors(void) { return COLORS; }
static inline int ctui_set_escdelay(int ms) { return set_escdelay(ms); }

static inline attr_t ctui_attr_normal(void) { return WA_NORMAL; }
static inline attr_t ctui_attr_bold(void) { return WA_BOLD; }
static inline attr_t ctui_attr_dim(void) { return WA_DIM; }
static inline attr_t ctui_attr_italic(void) { return WA_ITALIC; }
static inline attr_t ctui_attr_underline(void) { return WA_UNDERLINE; }
static inline attr_t ctui_attr_reverse(void) { return WA_REVERSE; }

static inline int ctui_err(void) { return ERR; }

/// Write one cell: a cluster of at most CCHARW_MAX wide characters with attributes and a colour pair.
static inline int ctui_put_cell(WINDOW *win, int y, int x, const wchar_t *wch, attr_t attrs, short pair) {
    cchar_t cc;
    if (setcchar(&cc, wch, attrs, pair, NULL) == ERR) return ERR;
    return mvwadd_wch(win, y, x, &cc);
}

/// Read one cell back: its wide characters (NUL-terminated, up to `cap`) and attributes. The
/// window's cursor stays where it was: an update takes it as where the terminal's cursor goes.
static inline int ctui_get_cell(WINDOW *win, int y, int x, wchar_t *out, int cap, attr_t *attrs, short *pair) {
    cchar_t cc;
    wchar_t buf[CCHARW_MAX + 1];
    int cy, cx;
    getyx(win, cy, cx);
    int read = mvwin_wch(win, y, x, &cc);
    wmove(win, cy, cx);
    if (read == ERR) return ERR;
    if (getcchar(&cc, buf, attrs, pair, NULL) == ERR) return ERR;
    int i = 0;
    for (; i < cap - 1 && buf[i] != 0; i++) out[i] = buf[i];
    out[i] = 0;
    return OK;
}

static inline int ctui_ccharw_max(void) { return CCHARW_MAX; }

/// Where the terminal's cursor is, as ncurses believes after its last update.
static inline void ctui_physical_cursor(int *y, int *x) { getyx(curscr, *y, *x); }

/// A string capability of the current terminal, or NULL when it has none.
static inline const char *ctui_string_capability(const char *name) {
    char *value = tigetstr(name);
    return (value == NULL || value == (char *)-1) ? NULL : value;
}

/// Whether the current terminal has a boolean capability.
static inline int ctui_flag_capability(const char *name) { return tigetflag(name) > 0; }

/// Never cut a frame short to read keys first: a frame on screen is always whole.
static inline int ctui_no_typeahead(void) { return typeahead(-1); }

#endif
