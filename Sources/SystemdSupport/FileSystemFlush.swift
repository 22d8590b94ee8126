import CSystemd
import Glibc

/// Flushes the file system that holds the folder `path` to the disk (`syncfs`): one flush for many files written
/// into it, where an `fsync` each cost a disk flush each. - Returns: 0, or the `errno` of what failed.
public func flushFileSystem(holding path: String) -> Int32 {
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else { return errno }
    defer { close(folder) }
    return syncfs(folder) == 0 ? 0 : errno
}
