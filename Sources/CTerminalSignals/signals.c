#include "TerminalSignals.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#define COUNT(array) (sizeof array / sizeof array[0])

static int signal_fds[2] = {-1, -1};

/// The signals that reach the main actor through the pipe: a resize, and every signal whose
/// default action would end the process without putting the terminal back (the reader then
/// restores it and exits with 128 + the number). SIGUSR1/2 and SIGALRM are among them: a
/// stray `kill -USR1` must not leave the alternate screen on.
static const int handled_signals[] = {
    SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF,
    SIGXCPU, SIGXFSZ, SIGPOLL, SIGPWR, SIGSTKFLT};

/// Fatal signals (a Swift trap is SIGILL or SIGTRAP): restored from the handler itself.
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS};

static struct termios saved_termios;
static volatile sig_atomic_t saved_termios_valid = 0;
static int saved_termios_fd = -1;

/// Undoes xterm's modes: attributes, mouse reporting (1000, 1002, 1003, 1006, 1015),
/// bracketed paste, application cursor keys and keypad, the cursor hidden, the alternate
/// screen. What the crash handler writes until the terminal's own strings are set.
static const char default_reset[] =
    "\033[0m\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?1015l\033[?2004l"
    "\033[?1l\033>\033[?25h\033[?1049l\r\n";
static char crash_reset[1024];
/// 0: the default.
static volatile size_t crash_reset_length = 0;

int hs_save_tty_modes(int fd) {
    if (tcgetattr(fd, &saved_termios) != 0) return -1;
    saved_termios_fd = fd;
    saved_termios_valid = 1;
    return 0;
}

void hs_set_crash_reset(const char *bytes, size_t length) {
    if (length >= sizeof crash_reset) length = sizeof crash_reset - 1;
    // Shorten first, so a crash while the bytes change writes a prefix of one or the other.
    crash_reset_length = 0;
    memcpy(crash_reset, bytes, length);
    crash_reset_length = length;
}

static void on_signal(int sig) {
    int saved = errno;
    unsigned char byte = (unsigned char)sig;
    if (signal_fds[1] >= 0) { ssize_t n = write(signal_fds[1], &byte, 1); (void)n; }
    errno = saved;
}

/// A fatal signal: put the terminal back with async-signal-safe calls only, then die of the
/// same signal.
static void on_crash(int sig) {
    size_t done = 0, length = crash_reset_length;
    const char *bytes = length > 0 ? crash_reset : default_reset;
    if (length == 0) length = sizeof default_reset - 1;
    while (done < length) {
        ssize_t n = write(STDOUT_FILENO, bytes + done, length - done);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            break;
        }
        done += (size_t)n;
    }
    if (saved_termios_valid) tcsetattr(saved_termios_fd, TCSANOW, &saved_termios);
    signal(sig, SIG_DFL);
    raise(sig);
}

int hs_install_signal_handlers(void) {
    if (signal_fds[0] < 0) {
        if (pipe(signal_fds) != 0) return -1;
        for (int i = 0; i < 2; i++) {
            fcntl(signal_fds[i], F_SETFD, FD_CLOEXEC);
            fcntl(signal_fds[i], F_SETFL, fcntl(signal_fds[i], F_GETFL) | O_NONBLOCK);
        }
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    action.sa_handler = on_signal;
    for (unsigned i = 0; i < COUNT(handled_signals); i++) sigaction(handled_signals[i], &action, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct sigaction crash;
    memset(&crash, 0, sizeof crash);
    sigemptyset(&crash.sa_mask);
    crash.sa_handler = on_crash;
    crash.sa_flags = SA_RESETHAND;
    for (unsigned i = 0; i < COUNT(fatal_signals); i++) sigaction(fatal_signals[i], &crash, NULL);
    return signal_fds[0];
}

void hs_unblock_handled_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < COUNT(handled_signals); i++) sigaddset(&set, handled_signals[i]);
    pthread_sigmask(SIG_UNBLOCK, &set, NULL);
}

void hs_reset_signal_handlers(void) {
    for (unsigned i = 0; i < COUNT(handled_signals); i++) signal(handled_signals[i], SIG_DFL);
    for (unsigned i = 0; i < COUNT(fatal_signals); i++) signal(fatal_signals[i], SIG_DFL);
}

int hs_wait_input(int fd, int signal_fd, int timeout_ms) {
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

int hs_read_signals(int signal_fd, int *out, int max) {
    unsigned char buffer[64];
    int count = 0;
    ssize_t n;
    while (count < max) {
        size_t want = sizeof buffer < (size_t)(max - count) ? sizeof buffer : (size_t)(max - count);
        n = read(signal_fd, buffer, want);
        if (n <= 0) break;
        for (ssize_t i = 0; i < n; i++) out[count++] = buffer[i];
    }
    return count;
}
