import CSystemd
import Glibc
import Synchronization

/// Starts commands as transient units of the user's service manager (`StartTransientUnit` over its private
/// socket, as `systemd-run --user` does): each in its own cgroup, outside remindd's sandbox (so a hook has the
/// network), killed whole when its main process exits (`KillMode=control-group`) or at its time limit
/// (`RuntimeMaxSec=`), its output on the pipe remindd caps. A unit is named `remindd-cmd-PID-N.service`. Its
/// `ActiveState` comes in the manager's `PropertiesChanged` signals: "inactive" means it exited with status 0
/// (the manager then collects it); a "failed" one is kept until remindd has asked how it ended, then reset.
/// (`AddRef=`, which would keep every unit to be asked, needs a bus name: the private socket has none; and the
/// signals' exit status is not the final one.)
public struct TransientUnitLauncher: CommandLauncher {
    /// The manager's private socket.
    public let socketPath: String
    /// Variables of the daemon's own environment a command also gets (the manager's environment lacks a
    /// session's display and bus where they were not imported into it).
    let sessionEnvironment: [String]
    private let counter = Counter()

    /// Under a user manager (`MANAGERPID` set, its private socket there), a launcher for it; else nil.
    public static func forUserManager(environment: [String: String]) -> TransientUnitLauncher? {
        guard environment["MANAGERPID"] != nil, let runtime = environment["XDG_RUNTIME_DIR"] else { return nil }
        let socket = runtime + "/systemd/private"
        var info = stat()
        guard stat(socket, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        let passed = ["DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS"]
        return TransientUnitLauncher(socketPath: socket, sessionEnvironment: passed.compactMap { name in environment[name].map { "\(name)=\($0)" } })
    }

    init(socketPath: String, sessionEnvironment: [String]) {
        self.socketPath = socketPath
        self.sessionEnvironment = sessionEnvironment
    }

    public func launch(_ command: UserCommand, output: Int32) throws(LaunchFailure) -> any LaunchedCommand {
        let name = "remindd-cmd-\(getpid())-\(counter.next()).service"
        let bus = try Self.connect(socketPath)
        do throws(LaunchFailure) {
            let unit = try Unit(bus: bus, name: name, socketPath: socketPath)
            try start(command, as: name, output: output, on: bus)
            return unit
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
    }

    /// A connection to the manager's private socket (no bus daemon between), calls timing out after 5 s.
    static func connect(_ socketPath: String) throws(LaunchFailure) -> OpaquePointer {
        var created: OpaquePointer?
        guard sd_bus_new(&created) >= 0, let bus = created else { throw LaunchFailure("sd_bus_new failed") }
        sd_bus_set_method_call_timeout(bus, 5_000_000)
        var result = ("unix:path=" + socketPath).withCString { sd_bus_set_address(bus, $0) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_unref(bus)
            throw LaunchFailure("cannot reach the user manager at \(socketPath): \(String(cString: strerror(-result)))")
        }
        return bus
    }

    /// `StartTransientUnit(name s, mode s, properties a(sv), aux a(sa(sv)))`.
    private func start(_ command: UserCommand, as name: String, output: Int32, on bus: OpaquePointer) throws(LaunchFailure) {
        var created: OpaquePointer?
        guard sd_bus_message_new_method_call(
            bus, &created, "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "StartTransientUnit") >= 0,
            let message = created
        else { throw LaunchFailure("cannot make a StartTransientUnit call") }
        defer { sd_bus_message_unref(message) }
        let writer = MessageWriter(message: message)
        writer.string(name)
        writer.string("fail")
        writer.open("a", "(sv)")
        writer.property("Description", "s") { writer.string("remindd: \(command.purpose)") }
        writer.property("Type", "s") { writer.string("exec") }
        writer.property("ExecStart", "a(sasb)") {
            writer.open("a", "(sasb)")
            writer.open("r", "sasb")
            writer.string(command.arguments[0])
            writer.strings(command.arguments)
            writer.boolean(false)
            writer.close()
            writer.close()
        }
        writer.property("Environment", "as") { writer.strings(sessionEnvironment + command.environment) }
        writer.property("StandardOutputFileDescriptor", "h") { writer.descriptor(output) }
        writer.property("StandardErrorFileDescriptor", "h") { writer.descriptor(output) }
        // remindd kills it at the limit itself; the manager's limit, a second later, holds should remindd be gone.
        writer.property("RuntimeMaxUSec", "t") { writer.unsigned(UInt64(command.timeLimitMilliseconds) * 1000 + 1_000_000) }
        writer.property("KillMode", "s") { writer.string("control-group") }
        writer.property("KillSignal", "i") { writer.integer(SIGKILL) }
        // As from a shell (and as a child of remindd): a pipeline's writer ends quietly when its reader has.
        writer.property("IgnoreSIGPIPE", "b") { writer.boolean(false) }
        writer.close()
        writer.open("a", "(sa(sv))")
        writer.close()
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, 0, &error, &reply)
        sd_bus_message_unref(reply)
        guard result >= 0 else { throw LaunchFailure("the user manager refused to start it: \(Self.describe(error, result))") }
    }

    static func describe(_ error: sd_bus_error, _ result: Int32) -> String {
        guard let name = error.name else { return String(cString: strerror(-result)) }
        return String(cString: name) + (error.message.map { ": " + String(cString: $0) } ?? "")
    }

    /// Kills a unit's processes with SIGKILL, over a connection of its own (callable from any thread).
    static func kill(unit name: String, socketPath: String) {
        guard let bus = try? connect(socketPath) else { return }  // no manager: nothing it runs to kill
        defer { sd_bus_flush_close_unref(bus) }
        var created: OpaquePointer?
        guard sd_bus_message_new_method_call(
            bus, &created, "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", "KillUnit") >= 0,
            let message = created
        else { return }
        defer { sd_bus_message_unref(message) }
        let writer = MessageWriter(message: message)
        writer.string(name)
        writer.string("all")
        writer.integer(SIGKILL)
        var reply: OpaquePointer?
        _ = sd_bus_call(bus, message, 0, nil, &reply)  // an error: the unit is gone already
        sd_bus_message_unref(reply)
    }

    /// A unit started: the bus fd is watched for its `PropertiesChanged`; it ended once inactive or failed.
    private struct Unit: LaunchedCommand {
        let bus: OpaquePointer
        let name: String
        let socketPath: String
        /// What the signals said so far, filled in by the match's callback.
        let news: UnsafeMutablePointer<UnitNews>

        init(bus: OpaquePointer, name: String, socketPath: String) throws(LaunchFailure) {
            var encoded: UnsafeMutablePointer<CChar>?
            guard sd_bus_path_encode("/org/freedesktop/systemd1/unit", name, &encoded) >= 0, let encoded else {
                throw LaunchFailure("cannot name the unit \(name)")
            }
            defer { free(encoded) }
            self.bus = bus
            self.name = name
            self.socketPath = socketPath
            news = .allocate(capacity: 1)
            news.initialize(to: UnitNews())
            // On the private socket there is no bus daemon: no sender to match (systemd-run does the same).
            let added = sd_bus_match_signal(bus, nil, nil, encoded, "org.freedesktop.DBus.Properties", "PropertiesChanged", { message, news, _ in
                news?.assumingMemoryBound(to: UnitNews.self).pointee.read(message)
                return 0
            }, news)
            guard added >= 0 else {
                news.deinitialize(count: 1)
                news.deallocate()
                throw LaunchFailure("cannot watch the unit: \(String(cString: strerror(-added)))")
            }
        }

        var descriptor: pollfd {
            pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0)
        }

        mutating func process() -> Bool {
            var result: Int32
            repeat { result = sd_bus_process(bus, nil) } while result > 0
            return result < 0 || news.pointee.ended  // < 0: the manager went away
        }

        var kill: @Sendable () -> Void {
            let (name, socketPath) = (name, socketPath)
            return { TransientUnitLauncher.kill(unit: name, socketPath: socketPath) }
        }

        consuming func finish() -> CommandOutcome {
            defer {
                sd_bus_flush_close_unref(bus)
                news.deinitialize(count: 1)
                news.deallocate()
            }
            switch news.pointee.activeState {
            case "inactive" where news.pointee.started: return .exited(0)
            case "failed":
                defer { call("ResetFailedUnit") }  // now the manager may collect it
                let service = "org.freedesktop.systemd1.Service"
                guard let result = property(service, "Result"), let code = number(service, "ExecMainCode"), let status = number(service, "ExecMainStatus")
                else { return .unknown("the user manager did not say how \(name) ended") }
                switch code {
                case _ where result == "exit-code" && status == 203:  // systemd's EXIT_EXEC
                    return .notStarted("the program cannot be executed (journalctl --user -u \(name) says why)")
                case 1: return .exited(status)  // CLD_EXITED
                case 2, 3: return .signalled(status)  // CLD_KILLED, CLD_DUMPED
                default: return result == "timeout" ? .killedAtTimeLimit : .unknown("\(name) ended with result \(result)")
                }
            default: return .unknown("the user manager went away while \(name) ran")
            }
        }

        private var path: String {
            var encoded: UnsafeMutablePointer<CChar>?
            guard sd_bus_path_encode("/org/freedesktop/systemd1/unit", name, &encoded) >= 0, let encoded else { return "" }
            defer { free(encoded) }
            return String(cString: encoded)
        }

        private func property(_ interface: String, _ member: String) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard sd_bus_get_property_string(bus, "org.freedesktop.systemd1", path, interface, member, nil, &value) >= 0, let value else { return nil }
            defer { free(value) }
            return String(cString: value)
        }

        private func number(_ interface: String, _ member: String) -> Int32? {
            var value: Int32 = 0
            guard sd_bus_get_property_trivial(bus, "org.freedesktop.systemd1", path, interface, member, nil, CChar(UInt8(ascii: "i")), &value) >= 0
            else { return nil }
            return value
        }

        /// A manager method that takes the unit's name.
        private func call(_ method: String) {
            var created: OpaquePointer?
            guard sd_bus_message_new_method_call(
                bus, &created, "org.freedesktop.systemd1", "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager", method) >= 0,
                let message = created
            else { return }
            defer { sd_bus_message_unref(message) }
            MessageWriter(message: message).string(name)
            var reply: OpaquePointer?
            _ = sd_bus_call(bus, message, 0, nil, &reply)  // an error: the unit is gone, nothing to reset
            sd_bus_message_unref(reply)
        }
    }

    /// The `ActiveState` a unit's `PropertiesChanged(interface s, changed a{sv}, invalidated as)` signals carry.
    struct UnitNews {
        var activeState: String?
        /// Whether it was ever past "inactive" (the state of a unit just made, before its start).
        var started = false

        /// Whether it ran and ended.
        var ended: Bool { activeState == "failed" || (started && activeState == "inactive") }

        mutating func read(_ message: OpaquePointer?) {
            var interface: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type("s"), &interface) >= 0,
                sd_bus_message_enter_container(message, type("a"), "{sv}") >= 0
            else { return }
            while sd_bus_message_enter_container(message, type("e"), "sv") > 0 {
                var name: UnsafePointer<CChar>?
                guard sd_bus_message_read_basic(message, type("s"), &name) >= 0, let name else { return }
                if strcmp(name, "ActiveState") == 0, sd_bus_message_enter_container(message, type("v"), "s") > 0 {
                    var value: UnsafePointer<CChar>?
                    if sd_bus_message_read_basic(message, type("s"), &value) >= 0, let value {
                        activeState = String(cString: value)
                        started = started || activeState != "inactive"
                    }
                    sd_bus_message_exit_container(message)
                } else {
                    sd_bus_message_skip(message, "v")
                }
                sd_bus_message_exit_container(message)
            }
        }

        private func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }
    }

    /// Numbers the units a daemon starts.
    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func next() -> Int { value.add(1, ordering: .relaxed).newValue }
    }
}

/// Appends values to an sd-bus message (the variadic `sd_bus_message_append` cannot be called from Swift).
struct MessageWriter {
    let message: OpaquePointer

    func string(_ text: String) { text.withCString { _ = sd_bus_message_append_basic(message, type("s"), $0) } }
    func strings(_ texts: [String]) {
        open("a", "s")
        texts.forEach(string)
        close()
    }
    func boolean(_ value: Bool) {
        var flag: Int32 = value ? 1 : 0
        sd_bus_message_append_basic(message, type("b"), &flag)
    }
    func integer(_ value: Int32) {
        var number = value
        sd_bus_message_append_basic(message, type("i"), &number)
    }
    func unsigned(_ value: UInt64) {
        var number = value
        sd_bus_message_append_basic(message, type("t"), &number)
    }
    /// A file descriptor: sd-bus sends a duplicate, the caller keeps its own.
    func descriptor(_ value: Int32) {
        var descriptor = value
        sd_bus_message_append_basic(message, type("h"), &descriptor)
    }
    func open(_ kind: Unicode.Scalar, _ contents: String) { sd_bus_message_open_container(message, type(kind), contents) }
    func close() { sd_bus_message_close_container(message) }
    /// One `(sv)` entry of a property list.
    func property(_ name: String, _ signature: String, value: () -> Void) {
        open("r", "sv")
        string(name)
        open("v", signature)
        value()
        close()
        close()
    }

    private func type(_ code: Unicode.Scalar) -> CChar { CChar(UInt8(ascii: code)) }
}
