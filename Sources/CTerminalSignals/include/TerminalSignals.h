#ifndef HERALD_TERMINAL_SIGNALS_H
#define HERALD_TERMINAL_SIGNALS_H

// The reader's signal handling and crash restore. This is a C target of its own, compiled
// once, so its storage (the signal pipe, the tty modes saved before ncurses changes them,
// the bytes that undo the screen's modes) exists once in the binary. In a header of static
// functions, each Swift module that inlined one got a copy of its own: the release binary
// saved the tty modes in one copy and restored them from another, empty one.

#include <stddef.h>

/// Saves the tty modes of `fd` as they are before ncurses changes them, for the crash
/// handler. Returns 0, or -1 when `fd` is not a tty.
int hs_save_tty_modes(int fd);

/// The bytes the crash handler writes to stdout to undo what the screen turned on (the
/// alternate screen, the mouse, application keys, a hidden cursor …). At most 1023 bytes
/// are kept; the default undoes xterm's modes.
void hs_set_crash_reset(const char *bytes, size_t length);

/// Installs the handlers; returns the read end of the signal pipe (a resize or a signal that
/// ends the reader is one byte there, its number), or -1.
int hs_install_signal_handlers(void);

/// Unblocks the signals Herald handles in the calling thread. Dispatch's worker threads
/// block them, and a thread created from one inherits that mask; the input thread calls this
/// so there is always a thread the signals can be delivered to.
void hs_unblock_handled_signals(void);

/// Puts every handler back to the default (after the terminal is restored).
void hs_reset_signal_handlers(void);

/// Reads pending signal numbers from the pipe; returns how many were stored in `out`.
int hs_read_signals(int signal_fd, int *out, int max);

/// Waits until `fd` or the signal pipe is readable, up to `timeout_ms`. Returns a bit set:
/// 1 `fd` readable, 2 a signal pending, 4 `fd` hung up or closed.
int hs_wait_input(int fd, int signal_fd, int timeout_ms);

#endif
