/// remindd's version: what `--version` prints for both binaries and what `GetInfo` and `Status` report.
public enum RemindVersion {
    public static let current = "0.2.0"
}
