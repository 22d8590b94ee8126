import GRDB

extension StatementArguments {
    /// `values` as a statement's arguments. GRDB's initializer for a sequence of values maps it with
    /// `\.databaseValue`, a generic key path made anew at each call (its type looked up by its mangled name): a
    /// tenth of inserting each of a calendar's 23,000 alarms.
    init(databaseValues values: [DatabaseValue]) {
        self.init(values.lazy.map { Optional.some($0 as any DatabaseValueConvertible) })
    }
}
