// libsystemd's journal and daemon APIs, for Swift. The variadic sd_journal_send and sd_notifyf
// cannot be called from Swift; the wrappers use sd_journal_sendv and sd_notify instead.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-bus.h>  // desktop notifications (org.freedesktop.Notifications) on the session bus
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/pidfd.h>  // command hooks: wait for a child with a time limit, kill it without a pid race
#include <spawn.h>
#include <signal.h>
#include <unistd.h>
int syncfs(int fd);  // glibc declares it only with _GNU_SOURCE: the linked collection flushes a batch of items at once
#include <malloc.h>  // malloc_trim: the daemon returns start-up garbage to the system
