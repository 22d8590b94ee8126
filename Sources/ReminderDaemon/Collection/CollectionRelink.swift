import ReminderCore
import ReminderStore

/// A folder reset, emptied or moved on purpose taken as the collection again.
extension CollectionService {
    /// `remindctl collection relink`: takes the folder as it is now as the collection (it was reset, emptied or
    /// moved on purpose, or the config names another one): every item remindd linked that it lacks is written
    /// into it again as remindd last wrote or read it, nothing here is removed, then it is read and published as
    /// usual. - Returns: the folder and how many items were written back.
    func relink() async throws(ServiceError) -> (folder: String, restored: Int) {
        guard let folder else {
            throw .invalidInput(parameter: "collection", message: "no collection is linked: set 'collection' in config.toml (see 'man remindd.toml')")
        }
        await acquire()
        let restored: Int
        do { restored = try writeBack(folder) } catch {
            release()
            throw error
        }
        release()
        await scan()
        await publishDue()
        return (folder, restored)
    }

    /// Writes every item the folder lacks back into it (see ``relink()``). - Returns: how many.
    private func writeBack(_ folder: String) throws(ServiceError) -> Int {
        let vdir = VdirFolder(path: folder)
        let listing: [VdirFolder.Entry]
        do { listing = try vdir.list().entries } catch {
            throw .invalidInput(parameter: "collection", message: "\(folder) cannot be read (\(error)): mount it, or create it with 'mkdir -p \(folder)'")
        }
        let names = Set(listing.map(\.name))
        let items = try storing { () throws(StoreError) in try stores.collection.items() }
        var restored = 0
        var restoring: [CollectionItemRecord] = []
        for item in items.values.sorted(by: { $0.fileName < $1.fileName }) where !item.fileName.contains("#") && !names.contains(item.fileName) {
            if item.kind == .alias {
                // Another device's copy that gave way to this one: not brought back.
                try storing { () throws(StoreError) in try stores.collection.forget(fileName: item.fileName) }
                continue
            }
            restoring.append(item)
        }
        var failed: [(String, String)] = []
        for (item, result) in zip(restoring, vdir.write(restoring.map { ($0.fileName, $0.text) })) {
            do {
                var written = item
                written.etag = try result.get()
                try stores.collection.save(written)
                restored += 1
            } catch {
                failed.append((item.fileName, "\(error)"))
            }
        }
        if let (file, error) = failed.first {
            // Said, and the call fails: "0 items written back" with success hid a folder remindd cannot write.
            let message = """
                could not write \(failed.count) of \(restoring.count) items back into \(folder) (\(file): \(error)); make the folder \
                writable for remindd (under its unit, a folder outside ~/.local/share/remindd needs ReadWritePaths= for its parent: \
                see remindd.toml(5)), then relink again
                """
            context.say(.error, "Collection " + message)
            throw .invalidInput(parameter: "collection", message: message)  // the folder, not the store: said once, above
        }
        if let was = heldBecause { context.say(.notice, DaemonMessages.collectionRelinked, folder, was, restored) }
        heldBecause = nil
        return restored
    }
}
