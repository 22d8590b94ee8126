import CSystemd
import Glibc
import Synchronization

/// A client of the freedesktop Desktop Notifications service (`org.freedesktop.Notifications`) on the
/// session bus, through sd-bus. One thread owns the bus (sd-bus is not thread-safe): it waits in `poll` on
/// the bus and on an eventfd that wakes it for queued requests, so it costs no wake-ups while idle. Calls
/// return at once; replies and signals arrive on `events`.
public final class DesktopNotifications: Sendable {
    /// What the notification server said.
    public enum Event: Sendable, Hashable {
        /// A `Notify` was answered: the request's tag, the notification's id, and the unique bus name of the
        /// server that answered (whose signals alone speak for that notification).
        case shown(tag: UInt64, id: UInt32, server: String)
        /// A `Notify` failed (no notification server, or it refused): the D-Bus error.
        case failed(tag: UInt64, error: String)
        /// The user chose an action: so says `sender`, the unique bus name that sent the signal (any client on
        /// the bus can send one; only the server that showed the notification speaks for it).
        case actionInvoked(id: UInt32, action: String, sender: String)
        /// The notification went away (1 expired, 2 dismissed, 3 closed by a call, 4 other), as `sender` says.
        case closed(id: UInt32, reason: UInt32, sender: String)
        /// A notification server took the bus name (a desktop session started, or its server was restarted):
        /// what the one before showed is gone, and ids it gave mean nothing now.
        case serverStarted
    }

    /// One notification to show.
    public struct Notification: Sendable {
        public var summary: String
        public var body: String
        /// Action keys and labels, in order.
        public var actions: [(key: String, label: String)]
        /// The notification it replaces (0: a new one).
        public var replacesID: UInt32
        /// Urgency critical: shown over do-not-disturb, as the server allows.
        public var critical: Bool
        /// Urgency low (quiet hours): the server shows it without drawing attention. Ignored when critical.
        public var low: Bool
        /// Stays until acted on or replaced (`expire_timeout` 0, and the `resident` hint: kept after an action
        /// where the server keeps notifications); else the server's default timeout.
        public var staying: Bool
        /// The `category` hint (`x-remindd.dose`): what kind of notification it is, for the server's settings.
        public var category: String?
        /// The `suppress-sound` hint: the application plays its own sound.
        public var suppressSound: Bool
        /// Expires after this long (over `staying` and `critical`).
        public var expireMilliseconds: Int32?

        public init(
            summary: String, body: String, actions: [(key: String, label: String)], replacesID: UInt32, critical: Bool, staying: Bool,
            category: String? = nil, suppressSound: Bool = false, low: Bool = false, expireMilliseconds: Int32? = nil
        ) {
            self.expireMilliseconds = expireMilliseconds
            self.low = low
            self.summary = summary
            self.body = body
            self.actions = actions
            self.replacesID = replacesID
            self.critical = critical
            self.staying = staying
            self.category = category
            self.suppressSound = suppressSound
        }
    }

    private enum Request: Sendable {
        case notify(tag: UInt64, Notification)
        case close(UInt32)
    }

    public let events: AsyncStream<Event>
    private let continuation: AsyncStream<Event>.Continuation
    private let requests = Mutex<[Request]>([])
    private let wake: Int32
    private let bus: BusHandle

    /// Connects to the user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    /// - Throws: why there is no session bus.
    public init(applicationName: String) throws(SystemError) {
        var bus: OpaquePointer?
        let opened = sd_bus_open_user(&bus)
        guard opened >= 0, let bus else { throw SystemError(operation: "sd_bus_open_user", code: -opened) }
        wake = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        self.bus = BusHandle(bus: bus, applicationName: applicationName, reporter: CallbackContext(continuation: continuation))
        let handle = self.bus
        let context = handle.reporterPointer
        for member in ["ActionInvoked", "NotificationClosed"] {
            sd_bus_match_signal(
                bus, nil, nil, "/org/freedesktop/Notifications", "org.freedesktop.Notifications", member, { message, userdata, _ in
                    let context = Unmanaged<CallbackContext>.fromOpaque(userdata!).takeUnretainedValue()
                    var id: UInt32 = 0
                    guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &id) >= 0 else { return 0 }
                    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
                    if String(cString: sd_bus_message_get_member(message)) == "ActionInvoked" {
                        var action: UnsafePointer<CChar>?
                        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &action) >= 0, let action else { return 0 }
                        context.continuation.yield(.actionInvoked(id: id, action: String(cString: action), sender: sender))
                    } else {
                        var reason: UInt32 = 0
                        _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "u")), &reason)
                        context.continuation.yield(.closed(id: id, reason: reason, sender: sender))
                    }
                    return 0
                }, context)
        }
        // NameOwnerChanged of the notification service's name: a server that starts (a login, a restart).
        sd_bus_add_match(
            bus, nil, "type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.freedesktop.Notifications'", { message, userdata, _ in
                let context = Unmanaged<CallbackContext>.fromOpaque(userdata!).takeUnretainedValue()
                var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
                let s = CChar(UInt8(ascii: "s"))
                guard sd_bus_message_read_basic(message, s, &name) >= 0, sd_bus_message_read_basic(message, s, &old) >= 0,
                    sd_bus_message_read_basic(message, s, &new) >= 0, let new, new.pointee != 0
                else { return 0 }
                context.continuation.yield(.serverStarted)
                return 0
            }, context)
        let wake = self.wake
        try DetachedThread.start { handle.run(wake: wake, requests: { self.takeRequests() }) }
    }

    /// Connects on a thread of its own, so that a session bus that hangs (it blocks a connect for sd-bus's 25 s
    /// timeout) holds up no caller's thread; cancellation returns at once.
    public static func connect(applicationName: String) async throws -> DesktopNotifications {
        try await DetachedThread.run { try DesktopNotifications(applicationName: applicationName) }
    }

    /// Runs once the bus thread has ended (it holds this object until then): the bus went away, or the
    /// thread could not be started.
    deinit {
        Glibc.close(wake)
    }

    /// Shows a notification; its id comes as `.shown(tag:id:)`.
    public func notify(_ notification: Notification, tag: UInt64) {
        enqueue(.notify(tag: tag, notification))
    }

    /// Closes a notification (`CloseNotification`).
    public func close(id: UInt32) {
        enqueue(.close(id))
    }

    private func takeRequests() -> [Request] {
        requests.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }

    private func enqueue(_ request: Request) {
        requests.withLock { $0.append(request) }
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// What the C callbacks need: where to report.
    private final class CallbackContext: Sendable {
        let continuation: AsyncStream<Event>.Continuation
        init(continuation: AsyncStream<Event>.Continuation) { self.continuation = continuation }
    }

    /// The bus connection, used only on its own thread once started.
    private final class BusHandle: @unchecked Sendable {
        // @unchecked: `bus` is touched only by `run`, on the one thread that owns it, after init.
        let bus: OpaquePointer
        let applicationName: String
        /// Where the C callbacks report (kept alive by this handle, which the bus thread keeps while it runs).
        let reporter: CallbackContext

        init(bus: OpaquePointer, applicationName: String, reporter: CallbackContext) {
            self.bus = bus
            self.applicationName = applicationName
            self.reporter = reporter
        }

        /// After the bus thread ended (it holds this handle while it runs).
        deinit {
            sd_bus_close_unref(bus)
        }

        /// The reporter as the C callbacks' userdata.
        var reporterPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(reporter).toOpaque() }

        /// Serves the bus until it goes away (or `poll` fails); then `events` ends.
        func run(wake: Int32, requests: () -> [Request]) {
            let context = reporterPointer
            defer { reporter.continuation.finish() }
            while true {
                while sd_bus_process(bus, nil) > 0 {}
                var entries = [
                    pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                    pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
                ]
                var timeout: UInt64 = 0
                var milliseconds: Int32 = -1
                if sd_bus_get_timeout(bus, &timeout) > 0, timeout != UInt64.max {
                    var now = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &now)
                    let nowMicro = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
                    milliseconds = timeout <= nowMicro ? 0 : Int32(min((timeout - nowMicro) / 1000 + 1, UInt64(Int32.max)))
                }
                if poll(&entries, 2, milliseconds) < 0 && errno != EINTR { return }
                if entries[1].revents != 0 {
                    var count: UInt64 = 0
                    _ = read(wake, &count, 8)
                    for request in requests() { send(request, context: context) }
                }
                if entries[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                    let reporter = Unmanaged<CallbackContext>.fromOpaque(context).takeUnretainedValue()
                    reporter.continuation.yield(.failed(tag: 0, error: "the session bus closed the connection"))
                    return
                }
            }
        }

        private func send(_ request: Request, context: UnsafeMutableRawPointer) {
            var message: OpaquePointer?
            let member = { if case .close = request { "CloseNotification" } else { "Notify" } }()
            guard sd_bus_message_new_method_call(
                bus, &message, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", member) >= 0,
                let message
            else { return }
            defer { sd_bus_message_unref(message) }
            switch request {
            case .close(var id):
                sd_bus_message_append_basic(message, type("u"), &id)
                sd_bus_call_async(bus, nil, message, { _, _, _ in 0 }, nil, 0)
            case .notify(let tag, let notification):
                append(notification, to: message)
                let box = Unmanaged.passRetained(ReplyBox(tag: tag, context: context)).toOpaque()
                let sent = sd_bus_call_async(bus, nil, message, { reply, userdata, _ in
                    let box = Unmanaged<ReplyBox>.fromOpaque(userdata!).takeRetainedValue()
                    let reporter = Unmanaged<CallbackContext>.fromOpaque(box.context).takeUnretainedValue()
                    if let error = sd_bus_message_get_error(reply), error.pointee.name != nil {
                        let text = String(cString: error.pointee.name) + (error.pointee.message.map { ": " + String(cString: $0) } ?? "")
                        reporter.continuation.yield(.failed(tag: box.tag, error: text))
                    } else {
                        var id: UInt32 = 0
                        _ = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &id)
                        let server = sd_bus_message_get_sender(reply).map { String(cString: $0) } ?? ""
                        reporter.continuation.yield(.shown(tag: box.tag, id: id, server: server))
                    }
                    return 0
                }, box, 0)
                if sent < 0 {
                    Unmanaged<ReplyBox>.fromOpaque(box).release()
                    Unmanaged<CallbackContext>.fromOpaque(context).takeUnretainedValue().continuation
                        .yield(.failed(tag: tag, error: String(cString: strerror(-sent))))
                }
            }
        }

        /// `Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv}, expire_timeout i)`.
        /// The hints: `urgency`; `desktop-entry` (the application's name: its `remindd.desktop` is what the
        /// desktop's notification settings list); `category` and `suppress-sound` when set; `resident` when staying.
        private func append(_ notification: Notification, to message: OpaquePointer) {
            func string(_ text: String) { text.withCString { _ = sd_bus_message_append_basic(message, type("s"), $0) } }
            var replaces = notification.replacesID
            string(applicationName)
            sd_bus_message_append_basic(message, type("u"), &replaces)
            string("appointment-soon")
            string(notification.summary)
            string(notification.body)
            sd_bus_message_open_container(message, type("a"), "s")
            for action in notification.actions {
                string(action.key)
                string(action.label)
            }
            sd_bus_message_close_container(message)
            /// One `{sv}` entry whose value is of D-Bus type `code`, appended by `value`.
            func hint(_ name: String, _ code: String, _ value: () -> Void) {
                sd_bus_message_open_container(message, type("e"), "sv")
                string(name)
                sd_bus_message_open_container(message, type("v"), code)
                value()
                sd_bus_message_close_container(message)
                sd_bus_message_close_container(message)
            }
            func flag(_ name: String) {
                hint(name, "b") {
                    var yes: Int32 = 1
                    sd_bus_message_append_basic(message, type("b"), &yes)
                }
            }
            sd_bus_message_open_container(message, type("a"), "{sv}")
            hint("urgency", "y") {
                var urgency: UInt8 = notification.critical ? 2 : notification.low ? 0 : 1
                sd_bus_message_append_basic(message, type("y"), &urgency)
            }
            hint("desktop-entry", "s") { string(applicationName) }
            if let category = notification.category { hint("category", "s") { string(category) } }
            if notification.suppressSound { flag("suppress-sound") }
            if notification.staying { flag("resident") }
            sd_bus_message_close_container(message)
            var expire: Int32 = notification.expireMilliseconds ?? (notification.staying || notification.critical ? 0 : -1)  // 0: never expires
            sd_bus_message_append_basic(message, type("i"), &expire)
        }

        private func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }
    }

    private final class ReplyBox: @unchecked Sendable {
        // @unchecked: created and consumed on the bus thread only.
        let tag: UInt64
        let context: UnsafeMutableRawPointer
        init(tag: UInt64, context: UnsafeMutableRawPointer) {
            self.tag = tag
            self.context = context
        }
    }
}
