#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ReminderCore
import Synchronization

/// The `delivery` column: a reminder's parts as nested JSON. `JSONDecoder` takes about 40 µs a row, which was
/// most of reading every medication (the Stock call behind remindd-web's Medication page, 1,000 rows), so the
/// texts read last are remembered with what they decode to: the same text always decodes to the same value, and
/// a row changed since is a new text. At most ``remembered`` of them (about 0.5 MB): past that the memory is
/// emptied and fills again, so a start-up read of 100,000 rows costs a hash and a copy per row, not memory.
/// Writing is remembered the same way: `JSONEncoder` was two fifths of storing a calendar's 23,863 alarms, whose
/// deliveries are a handful of values.
enum DeliveryColumn {
    static let remembered = 1024

    private static let decoded = Mutex<[String: Delivery]>([:])
    private static let encoded = Mutex<[Delivery: String]>([:])

    /// The column's text for `delivery` (nil: the default delivery, stored as NULL).
    static func encode(_ delivery: Delivery) throws -> String? {
        if delivery.isDefault { return nil }
        if let known = encoded.withLock({ $0[delivery] }) { return known }
        let text = String(decoding: try JSONEncoder().encode(delivery), as: UTF8.self)
        encoded.withLock { memory in
            if memory.count >= remembered { memory.removeAll(keepingCapacity: true) }
            memory[delivery] = text
        }
        return text
    }

    static func decode(_ text: String) throws -> Delivery {
        if let known = decoded.withLock({ $0[text] }) { return known }
        let delivery = try JSONDecoder().decode(Delivery.self, from: Data(text.utf8))
        decoded.withLock { memory in
            if memory.count >= remembered { memory.removeAll(keepingCapacity: true) }
            memory[text] = delivery
        }
        return delivery
    }
}
