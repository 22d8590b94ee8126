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
        await publish()
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
        for (item, result) in zip(restoring, vdir.write(restoring.map { ($0.fileName, $0.text) })) {
            do {
                var written = item
                written.etag = try result.get()
                try stores.collection.save(written)
                restored += 1
            } catch {
                reportOnce("write \(item.fileName)", .error, "Collection \(folder): could not write \(item.fileName) back: \(error); relink again")
            }
        }
        if let was = heldBecause { context.say(.notice, "Collection \(folder) relinked (it was not used: \(was)); \(restored) items written back into it") }
        heldBecause = nil
        return restored
    }
}
