#ifndef CJOURNALNATIVE_H
#define CJOURNALNATIVE_H

#include <stddef.h>

/// Sends one entry, already in journald's native format, to the datagram socket at `path`: as one datagram, or,
/// when it is too large for one, as a sealed memfd passed with SCM_RIGHTS (what sd_journal_sendv does).
/// Returns 0, or -errno.
int remindd_journal_native_send(const char *path, const void *entry, size_t size);

#endif
