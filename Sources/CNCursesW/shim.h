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


// ---- Signals: a self-pipe, so signal handlers do nothing but write one byte. -------------
// The terminal module's input thread polls the read end beside stdin; the main actor then
// handles the signal (resize, restore and quit). Static storage is private to the one Swift
// module that imports this header for real (HeraldTerminal).

static int cn_signal_fds[2] = {-1, -1};

/// The signals that reach the main actor through the pipe: a resize, and every signal whose
/// default action would end the process without putting the terminal back (the reader then
/// restores it and exits with 128 + the number). SIGUSR1/2 and SIGALRM are among them: a
/// stray `kill -USR1` must not leave the alternate screen on.
static const int cn_handled_signals[] = {
    SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
    SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT};
/// Fatal signals (a Swift trap is SIGILL or SIGTRAP): restored from the handler itself.
static const int cn_fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS};
#define CN_COUNT(array) (sizeof array / sizeof array[0])
static int cn_saved_termios_valid = -1;  // -1: nothing saved (a non-zero initialiser keeps it emitted)

/// Storage for the tty modes to restore after a crash.
static inline struct termios *cn_saved_termios(void) {
    static struct termios saved;
    return &saved;
}

static void cn_on_signal(int sig) {
    int saved = errno;
    unsigned char byte = (unsigned char)sig;
    if (cn_signal_fds[1] >= 0) { ssize_t n = write(cn_signal_fds[1], &byte, 1); (void)n; }
    errno = saved;
}

/// A fatal signal (a Swift trap is SIGILL or SIGTRAP): put the terminal back with
/// async-signal-safe calls only, then die of the same signal.
static void cn_on_crash(int sig) {
    static const char reset[] = "\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t n = write(STDOUT_FILENO, reset, sizeof reset - 1); (void)n;
    if (cn_saved_termios_valid == 1) tcsetattr(STDIN_FILENO, TCSANOW, cn_saved_termios());
    signal(sig, SIG_DFL);
    raise(sig);
}

/// Saves the tty modes as they are before ncurses changes them, for the crash handler.
static inline void cn_save_tty_modes(void) {
    if (tcgetattr(STDIN_FILENO, cn_saved_termios()) == 0) cn_saved_termios_valid = 1;
}

/// Installs the handlers; returns the read end of the signal pipe, or -1.
static inline int cn_install_signal_handlers(void) {
    if (cn_signal_fds[0] < 0) {
        if (pipe(cn_signal_fds) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(cn_signal_fds[i], F_SETFD, FD_CLOEXEC);
            fcntl(cn_signal_fds[i], F_SETFL, fcntl(cn_signal_fds[i], F_GETFL) | O_NONBLOCK);
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = cn_on_signal;
    for (unsigned i = 0; i < CN_COUNT(cn_handled_signals); i++) sigaction(cn_handled_signals[i], &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    sigemptyset(&crash.sa_mask);
    crash.sa_handler = cn_on_crash;
    crash.sa_flags = SA_RESETHAND;
    for (unsigned i = 0; i < CN_COUNT(cn_fatal_signals); i++) sigaction(cn_fatal_signals[i], &crash, NULL);
    return cn_signal_fds[0];
}

/// Unblocks the signals Herald handles in the calling thread. Dispatch's worker threads
/// block them, and a thread created from one inherits that mask; the input thread calls this
/// so there is always a thread the signals can be delivered to.
static inline void cn_unblock_handled_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < CN_COUNT(cn_handled_signals); i++) sigaddset(&set, cn_handled_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
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

/// Puts every handler back to the default (after the terminal is restored).
static inline void cn_reset_signal_handlers(void) {
    for (unsigned i = 0; i < CN_COUNT(cn_handled_signals); i++) signal(cn_handled_signals[i], SIG_DFL);
    for (unsigned i = 0; i < CN_COUNT(cn_fatal_signals); i++) signal(cn_fatal_signals[i], SIG_DFL);
}

/// Waits until stdin (fd) or the signal pipe is readable, up to timeout_ms.
/// Returns a bit set: 1 stdin readable, 2 signal pending, 4 stdin hung up / closed.
static inline int cn_wait_input(int fd, int signal_fd, int timeout_ms) {
    struct pollfd fds[2];
    fds[0].fd = fd; fds[0].events = POLLIN; fds[0].revents = 0;
    fds[1].fd = signal_fd; fds[1].events = POLLIN; fds[1].revents = 0;
    int n = poll(fds, signal_fd >= 0 ? 2 : 1, timeout_ms);
    if (n <= 0) return 0;
    int result = 0;
    if (fds[0].revents & POLLIN) result |= 1;
    if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) result |= 4;
    if (signal_fd >= 0 && (fds[1].revents & POLLIN)) result |= 2;
    return result;
}

/// Reads pending signal numbers from the pipe; returns how many were stored in out.
static inline int cn_read_signals(int signal_fd, int *out, int max) {
    unsigned char buf[64];
    int count = 0;
    ssize_t n;
    while (count < max && (n = read(signal_fd, buf, sizeof buf < (size_t)(max - count) ? sizeof buf : (size_t)(max - count))) > 0) {
        for (ssize_t i = 0; i < n; i++) out[count++] = buf[i];
    }
    return count;
}

#endif
