#ifndef CJOURNALNATIVE_H
#define CJOURNALNATIVE_H

#include <stddef.h>

/// Opens a datagram socket connected to journald's native socket at `path`, its send buffer raised to 8 MiB as
/// libsystemd raises its own (a burst's entries wait there while journald catches up). Returns the descriptor,
/// or -errno (-ENOENT, -ECONNREFUSED: no journald listens).
int remindd_journal_connect(const char *path);

/// Sends one entry, already in journald's native format, on a socket from remindd_journal_connect: as one
/// datagram, or, when it is too large for one, as a sealed memfd passed with SCM_RIGHTS (what sd_journal_sendv
/// does). Returns 0, or -errno.
int remindd_journal_send(int sock, const void *entry, size_t size);

#endif
