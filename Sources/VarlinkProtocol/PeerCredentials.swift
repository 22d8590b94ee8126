/// `struct ucred` from <sys/socket.h> (hidden behind _GNU_SOURCE from Swift): three 32-bit fields, same layout.
/// What `SO_PEERCRED` reports of the process at the other end of a Unix socket.
public struct PeerCredentials: Sendable {
    public var pid: Int32 = 0
    public var uid: UInt32 = 0
    public var gid: UInt32 = 0

    public init() {}
}
