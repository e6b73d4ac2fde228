#ifndef HERALD_CNCURSESW_SHIM_H
#define HERALD_CNCURSESW_SHIM_H

// Wide-character ncurses: NCURSES_WIDECHAR needs this before <ncurses.h>.
#define _XOPEN_SOURCE_EXTENDED 1
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <signal.h>
#include <errno.h>
#include <fcntl.h>
#include <termios.h>
#include <poll.h>
#include <pthread.h>

// glibc declares these only under __USE_XOPEN; Swift's Glibc module does not see them.
extern int wcwidth(wchar_t c);

// Mutable C globals are rejected by Swift 6 strict concurrency: read them through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline WINDOW *cn_curscr(void) { return curscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_ok(void) { return OK; }
static inline int cn_err(void) { return ERR; }
static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }

// Attribute bits are macros built from NCURSES_BITS: expose them as values.
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_italic(void) { return A_ITALIC; }

/// The terminal's size from the tty (ioctl is variadic, so Swift cannot call it).
static inline int cn_winsize(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0 || ws.ws_row == 0 || ws.ws_col == 0) return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

/// Builds a cchar_t from up to CCHARW_MAX wide characters (setcchar takes a const wchar_t*).
static inline int cn_setcchar(cchar_t *out, const wchar_t *wch, attr_t attrs, short pair) {
    return setcchar(out, wch, attrs, pair, NULL);
}

/// Reads a cell back: its characters (NUL-terminated, up to CCHARW_MAX), attributes and pair.
static inline int cn_getcchar(const cchar_t *cell, wchar_t *wch, attr_t *attrs, short *pair) {
    return getcchar(cell, wch, attrs, pair, NULL);
}

static inline int cn_ccharw_max(void) { return CCHARW_MAX; }

// ---- Mouse: clicks, double clicks and the wheel (buttons 4 and 5). ----------------------
static inline void cn_mouse_enable(int on) {
    mmask_t wanted = on ? (BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED) : 0;
    mousemask(wanted, NULL);
    if (on) mouseinterval(200);
}
static inline int cn_key_mouse(void) { return KEY_MOUSE; }
/// The last mouse event: 1 click, 2 double click, 3 wheel up, 4 wheel down, 0 other; -1 none.
static inline int cn_get_mouse(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return -1;
    *x = event.x;
    *y = event.y;
    if (event.bstate & BUTTON1_DOUBLE_CLICKED) return 2;
    if (event.bstate & BUTTON1_CLICKED) return 1;
    if (event.bstate & BUTTON4_PRESSED) return 3;
    if (event.bstate & BUTTON5_PRESSED) return 4;
    return 0;
}

/// Whether terminal type `term` can address the cursor (terminfo `cup`) and clear the
/// screen (`clear`): 1 yes, 0 no (`dumb`, a printing terminal), -1 unknown to terminfo.
/// Looks the type up without touching the screen, before `newterm` writes anything.
static inline int cn_term_is_full_screen(const char *term, int fd) {
    int error = 0;
    TERMINAL *saved = cur_term;
    if (setupterm(term, fd, &error) != OK) { set_curterm(saved); return -1; }
    TERMINAL *probe = cur_term;
    char *cup = tigetstr("cup");
    char *clear = tigetstr("clear");
    int ok = cup != NULL && cup != (char *)-1 && clear != NULL && clear != (char *)-1;
    set_curterm(saved);
    del_curterm(probe);
    return ok;
}


/// A terminfo string capability of the current terminal, or NULL when it has none.
static inline const char *cn_terminfo_string(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}

/// Runs a program (argv[0] looked up in PATH, no shell) with its signals at their defaults
/// and unblocked, and waits for it. Returns its wait status, or -1 if it could not start.
#include <spawn.h>
#include <sys/wait.h>
extern char **environ;
static inline int cn_spawn_wait(char *const argv[]) {
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int failed = posix_spawnp(&pid, argv[0], NULL, &attributes, argv, environ);
    posix_spawnattr_destroy(&attributes);
    if (failed != 0) return -1;
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return status;
}

#endif
