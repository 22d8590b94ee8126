import GRDB

/// A row read from its table, with the id it has there: a record's own `id` is optional (nil until it is
/// inserted), a stored row's is not. Its fields read through as the record's (`stored.decidedAt`).
@dynamicMemberLookup
public struct Stored<Record: FetchableRecord & Sendable & Hashable>: FetchableRecord, Sendable, Hashable {
    public let id: Int64
    public var record: Record

    public init(row: Row) throws {
        id = row["id"]
        record = try Record(row: row)
    }

    public subscript<Value>(dynamicMember field: KeyPath<Record, Value>) -> Value { record[keyPath: field] }
}

extension QueryInterfaceRequest where RowDecoder: FetchableRecord & Sendable & Hashable {
    /// The rows this request selects, each with its id.
    public func stored() -> QueryInterfaceRequest<Stored<RowDecoder>> { asRequest(of: Stored<RowDecoder>.self) }
}
