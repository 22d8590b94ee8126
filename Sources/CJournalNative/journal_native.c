#define _GNU_SOURCE
#include "CJournalNative.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

// journald's native protocol without libsystemd (systemd's "Native Journal Protocol"), on a connected socket: the
// macros for SCM_RIGHTS and memfd_create are C's, hence this file.

static int send_descriptor(int sock, int fd) {
    union {
        struct cmsghdr header;
        char space[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct msghdr message = {0};
    message.msg_control = &control;
    message.msg_controllen = sizeof(control);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    ssize_t sent;
    do sent = sendmsg(sock, &message, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    return sent < 0 ? -errno : 0;
}

static int write_all(int fd, const char *bytes, size_t size) {
    while (size > 0) {
        ssize_t written = write(fd, bytes, size);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        bytes += written;
        size -= (size_t)written;
    }
    return 0;
}

int remindd_journal_connect(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(address.sun_path)) return -ENAMETOOLONG;
    strcpy(address.sun_path, path);
    int sock = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (sock < 0) return -errno;
    // As libsystemd's fd_inc_sndbuf: SO_SNDBUF (capped by net.core.wmem_max), then SO_SNDBUFFORCE where allowed.
    int wanted = 8 * 1024 * 1024, granted = 0;
    socklen_t length = sizeof(granted);
    (void)setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &wanted, sizeof(wanted));
    if (getsockopt(sock, SOL_SOCKET, SO_SNDBUF, &granted, &length) == 0 && granted < wanted) {
        (void)setsockopt(sock, SOL_SOCKET, SO_SNDBUFFORCE, &wanted, sizeof(wanted));  // EPERM without CAP_NET_ADMIN
    }
    if (connect(sock, (const struct sockaddr *)&address, sizeof(address)) < 0) {
        int result = -errno;
        close(sock);
        return result;
    }
    return sock;
}

int remindd_journal_send(int sock, const void *entry, size_t size) {
    // Sent again when a signal's handler (one without SA_RESTART) interrupted a send waiting for journald's full
    // queue: the entry was not sent, and is not refused either.
    ssize_t sent;
    do sent = send(sock, entry, size, MSG_NOSIGNAL); while (sent < 0 && errno == EINTR);
    if (sent >= 0) return 0;
    int result = -errno;
    if (result != -EMSGSIZE && result != -ENOBUFS) return result;
    // Too large for a datagram: the entry in a sealed memfd, the descriptor sent instead.
    int fd = memfd_create("journal-entry", MFD_ALLOW_SEALING | MFD_CLOEXEC);
    if (fd < 0) return -errno;
    result = write_all(fd, entry, size);
    if (result == 0 && fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) result = -errno;
    if (result == 0) result = send_descriptor(sock, fd);
    close(fd);
    return result;
}
