import FoundationEssentials
import Glibc
import ReminderInterface
import VarlinkProtocol

/// Sends what `import` is given to the daemon in parts (``Backup/Upload``): a regular file, standard input
/// (`-`, a pipe too), or the files of Loop's CSV folder. remindctl reads them itself, so a path the service's
/// sandbox hides (the caller's `/tmp`) works, and a file of any size goes in parts of 512 KiB.
struct FileUpload {
    let connection: any VarlinkClient
    private var upload: String?

    init(connection: any VarlinkClient) {
        self.connection = connection
    }

    /// Sends `argument` (a path, or `-`); a folder only when `folders` (Loop's CSV export: its `Habits.csv`
    /// and each habit's `Checkmarks.csv`).
    /// - Returns: the upload to import.
    static func send(_ argument: String, folders: Bool, over connection: any VarlinkClient) throws -> String {
        var sender = FileUpload(connection: connection)
        if argument == "-" {
            try sender.send(FileReader.standardInput, as: "standard input")
        } else {
            var info = stat()
            guard stat(argument, &info) == 0 else {
                throw CLIError("cannot read \(argument): no such file\(folders ? " or folder" : "")")
            }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            // A FIFO or a device could block the read for ever: a pipe goes in through standard input (-).
            guard isFolder || info.st_mode & S_IFMT == S_IFREG else {
                throw CLIError("\(argument) is not a regular file\(folders ? " or folder" : ""): to read a pipe, give - and redirect it to standard input")
            }
            let name = argument.split(separator: "/").last { $0 != "." && $0 != ".." }.map(String.init) ?? "file"
            if isFolder {
                guard folders else { throw CLIError("\(argument) is a folder: give the backup file 'remindctl export' wrote") }
                try sender.sendLoopFolder(argument, as: name)
            } else {
                try sender.send(path: argument, as: name)
            }
        }
        return sender.upload!
    }

    /// Loop's CSV export: `Habits.csv` and each habit folder's `Checkmarks.csv`, nothing else.
    private mutating func sendLoopFolder(_ folder: String, as name: String) throws {
        guard FileManager.default.fileExists(atPath: folder + "/Habits.csv") else {
            throw CLIError("\(folder) has no Habits.csv: give the folder of Loop's CSV export, or its .db backup")
        }
        try send(path: folder + "/Habits.csv", as: name + "/Habits.csv")
        let habits: [String]
        do { habits = try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw CLIError("cannot list \(folder): \(error)")
        }
        for habit in habits where FileManager.default.fileExists(atPath: folder + "/" + habit + "/Checkmarks.csv") {
            try send(path: folder + "/" + habit + "/Checkmarks.csv", as: name + "/" + habit + "/Checkmarks.csv")
        }
    }

    private mutating func send(path: String, as name: String) throws {
        try send(try FileReader(path: path), as: name)
    }

    /// Sends a file's contents part by part, as they are read (an empty file as one empty part).
    private mutating func send(_ file: FileReader, as name: String) throws {
        var first = true
        while true {
            let part = Data(try file.read(upTo: Backup.Upload.partSize, name: name))
            guard !part.isEmpty || first else { return }
            first = false
            upload = try connection.call(Backup.Upload.self, .init(upload: upload, name: name, data: part.base64EncodedString())).upload
            if part.isEmpty { return }
        }
    }
}
