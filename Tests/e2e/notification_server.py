"""A Desktop Notifications server for the tests (org.freedesktop.Notifications, as the freedesktop
specification defines it), on the session bus given by DBUS_SESSION_BUS_ADDRESS.

It prints each call it receives as one JSON line on stdout ({"call": "Notify", ...}), and reads commands on
stdin: `invoke ID KEY` emits ActionInvoked(ID, KEY) and then, as servers do, closes the notification
(NotificationClosed(ID, 2)) unless it has the `resident` hint (the specification: "the server will not
automatically remove the notification when an action has been invoked").
"""
import asyncio
import json
import sys

from dbus_next.aio import MessageBus
from dbus_next.aio import message_bus
from dbus_next.service import ServiceInterface, method, signal


class _MessageWriter(message_bus._MessageWriter):
    """dbus-next 0.2.3's writer takes a full socket (EAGAIN: a 1.3 MB signal written faster than dbus-daemon
    reads it) for a lost connection and drops the bus, and every later click and call with it: a forged-click
    test lost the real click after a long key in one run of two, and remindd was suspected. This one waits for
    the socket to be writable again, as dbus-next does after a partial write. (The server sends no file
    descriptors: the writer's SCM_RIGHTS branch is left out.)"""

    def write_callback(self):
        try:
            while True:
                if self.buf is None:
                    if self.messages.qsize() == 0:
                        self.loop.remove_writer(self.fd)
                        return
                    buf, _, self.fut = self.messages.get_nowait()
                    self.buf, self.offset = memoryview(buf), 0
                try:
                    self.offset += self.sock.send(self.buf[self.offset:])
                except BlockingIOError:
                    return  # called again once the socket is writable
                if self.offset < len(self.buf):
                    return
                self.buf = None
                message_bus._future_set_result(self.fut, None)
        except Exception as error:
            message_bus._future_set_exception(self.fut, error)
            self.bus._finalize(error)


message_bus._MessageWriter = _MessageWriter


def record(**fields):
    print(json.dumps(fields), flush=True)


class Notifications(ServiceInterface):
    def __init__(self):
        super().__init__("org.freedesktop.Notifications")
        self.next_id = 1
        self.resident = set()

    @method()
    def Notify(self, app_name: "s", replaces_id: "u", app_icon: "s", summary: "s", body: "s", actions: "as",
               hints: "a{sv}", expire_timeout: "i") -> "u":
        nid = replaces_id or self.next_id
        if not replaces_id:
            self.next_id += 1
        if "resident" in hints and hints["resident"].value:
            self.resident.add(nid)
        else:
            self.resident.discard(nid)
        record(call="Notify", id=nid, app_name=app_name, replaces_id=replaces_id, summary=summary, body=body,
               actions=actions, urgency=hints["urgency"].value if "urgency" in hints else None, expire_timeout=expire_timeout,
               resident=hints["resident"].value if "resident" in hints else None,
               hints={name: variant.value for name, variant in hints.items()})
        return nid

    @method()
    def CloseNotification(self, id: "u"):
        record(call="CloseNotification", id=id)
        self.NotificationClosed(id, 3)

    @method()
    def GetCapabilities(self) -> "as":
        return ["actions", "body"]

    @method()
    def GetServerInformation(self) -> "ssss":
        return ["remindd-test", "remindd", "1", "1.2"]

    @signal()
    def ActionInvoked(self, id, key) -> "us":
        return [id, key]

    @signal()
    def NotificationClosed(self, id, reason) -> "uu":
        return [id, reason]


async def main():
    bus = await MessageBus().connect()
    server = Notifications()
    bus.export("/org/freedesktop/Notifications", server)
    await bus.request_name("org.freedesktop.Notifications")
    record(call="ready")
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)  # a forged key of 100,000 choices is one long line
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command, nid, key = line.decode().split()
        if command == "invoke":
            server.ActionInvoked(int(nid), key)
            if int(nid) not in server.resident:
                server.NotificationClosed(int(nid), 2)


asyncio.run(main())
