import Foundation
import ReminderCore

/// A two-way sync of two vdir folders as vdirsyncer does it, for in-process tests of two devices: a status of
/// each item's etag on both sides since the last sync; an item changed on one side is copied to the other, one
/// removed on one side is removed on the other (unless changed there), one changed on both is a conflict that
/// ``CollectionItem/resolve(_:_:)`` decides (what `remindctl resolve-conflict` does for the real vdirsyncer).
/// The real vdirsyncer and Radicale are in the end-to-end tests.
public final class FolderSync {
    public let a: String
    public let b: String
    private var status: [String: (a: String, b: String)] = [:]
    /// The conflicts resolved so far: the file name and the version that was not kept.
    public private(set) var conflicts: [(name: String, other: String)] = []
    /// The files the last sync wrote or removed in each folder (what a folder watcher there names).
    public private(set) var changedNames: (a: Set<String>, b: Set<String>) = ([], [])

    public init(_ a: String, _ b: String) {
        (self.a, self.b) = (a, b)
    }

    /// Syncs once in both directions. - Returns: the number of items copied or removed.
    @discardableResult
    public func sync() throws -> Int {
        let (left, right) = (try Self.items(a), try Self.items(b))
        var changes = 0
        defer {
            // Whatever now differs from before, on each side.
            let (leftNow, rightNow) = ((try? Self.items(a)) ?? [:], (try? Self.items(b)) ?? [:])
            changedNames = (Set(left.keys).union(leftNow.keys).filter { left[$0] != leftNow[$0] },
                            Set(right.keys).union(rightNow.keys).filter { right[$0] != rightNow[$0] })
        }
        for name in Set(left.keys).union(right.keys).sorted() {
            let known = status[name]
            switch (left[name], right[name]) {
            case let (l?, r?):
                let changedLeft = known?.a != l
                let changedRight = known?.b != r
                if !changedLeft && !changedRight { continue }
                let (textLeft, textRight) = (try Self.read(a, name), try Self.read(b, name))
                if textLeft == textRight {
                    status[name] = (l, r)
                } else if changedLeft && !changedRight {
                    status[name] = (l, try Self.write(b, name, textLeft))
                    changes += 1
                } else if changedRight && !changedLeft {
                    status[name] = (try Self.write(a, name, textRight), r)
                    changes += 1
                } else {
                    let resolved = CollectionItem.resolve(textLeft, textRight)
                    conflicts.append((name, resolved.other))
                    status[name] = (
                        resolved.kept == textLeft ? l : try Self.write(a, name, resolved.kept),
                        resolved.kept == textRight ? r : try Self.write(b, name, resolved.kept))
                    changes += 1
                }
            case (let l?, nil):
                if let known, known.a == l {
                    try FileManager.default.removeItem(atPath: a + "/" + name)  // removed on the other side
                    status[name] = nil
                } else {
                    status[name] = (l, try Self.write(b, name, try Self.read(a, name)))
                }
                changes += 1
            case (nil, let r?):
                if let known, known.b == r {
                    try FileManager.default.removeItem(atPath: b + "/" + name)
                    status[name] = nil
                } else {
                    status[name] = (try Self.write(a, name, try Self.read(b, name)), r)
                }
                changes += 1
            case (nil, nil):
                continue
            }
        }
        return changes
    }

    /// The items of a folder and their etags (mtime, inode, size).
    static func items(_ folder: String) throws -> [String: String] {
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".ics") && !name.hasPrefix(".") {
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0 else { continue }
            found[name] = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)-\(info.st_size)"
        }
        return found
    }

    static func read(_ folder: String, _ name: String) throws -> String {
        try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
    }

    /// Writes through a temporary file and a rename, as vdirsyncer does. - Returns: the new etag.
    static func write(_ folder: String, _ name: String, _ text: String) throws -> String {
        let temporary = folder + "/." + name + ".sync.tmp"
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        _ = rename(temporary, folder + "/" + name)
        return try items(folder)[name] ?? ""
    }
}
