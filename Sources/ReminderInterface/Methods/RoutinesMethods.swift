import VarlinkProtocol

/// `io.remindd.Routines`: recommended weekly routines, and the one the user follows.
public enum Routines {
    public static let interface = "io.remindd.Routines"
}

/// A method of `io.remindd.Routines`.
public protocol RoutinesMethod: VarlinkMethod {}
extension RoutinesMethod {
    public static var interface: String { Routines.interface }
}

/// A reply of the selected routine, if any.
public struct SelectionReply: Codable, Sendable, Hashable {
    public var selection: RoutineSelectionValue?
    public init(selection: RoutineSelectionValue?) { self.selection = selection }
}

extension Routines {
    public enum List: RoutinesMethod {
        public typealias Parameters = NoFields
        public struct Reply: Codable, Sendable, Hashable {
            public var routines: [RoutineValue]
            public init(routines: [RoutineValue]) { self.routines = routines }
        }
    }

    public enum Show: RoutinesMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var id: String
            public init(id: String) { self.id = id }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var routine: RoutineValue
            public init(routine: RoutineValue) { self.routine = routine }
        }
    }

    /// Follows a routine from `start`; with `at` it adds a weekly reminder for each training day.
    public enum Select: RoutinesMethod {
        public struct Parameters: Codable, Sendable, Hashable {
            public var id: String
            public var start: String?
            public var at: String?
            public init(id: String, start: String? = nil, at: String? = nil) { (self.id, self.start, self.at) = (id, start, at) }
        }
        public struct Reply: Codable, Sendable, Hashable {
            public var selection: RoutineSelectionValue
            public init(selection: RoutineSelectionValue) { self.selection = selection }
        }
    }

    public enum Current: RoutinesMethod {
        public typealias Parameters = NoFields
        public typealias Reply = SelectionReply
    }

    /// Removes exactly what the selection created.
    public enum Clear: RoutinesMethod {
        public typealias Parameters = NoFields
        public typealias Reply = NoFields
    }
}
