import ReminderInterface
import Testing
import VarlinkProtocol

/// The catalogue (the Swift types remindd and remindctl share) against the `.varlink` files clients read:
/// the same interfaces, methods, fields, optionality and errors.
@Suite struct CatalogueTests {
    static let interfaces = Catalogue.interfaces.map(\.name)

    @Test(arguments: interfaces)
    func everyMethodAndErrorMatchesTheIDL(_ interfaceName: String) throws {
        let interface = try #require(Catalogue.interfaces.first { $0.name == interfaceName })
        let idl = try VarlinkIDL(interface.idl)
        #expect(idl.name == interface.name)
        let swiftMethods = interface.methods.map { $0.name }
        #expect(Set(swiftMethods).count == swiftMethods.count, "a method is listed twice")
        #expect(swiftMethods.sorted() == idl.methods.keys.sorted())
        for method in interface.methods {
            #expect(method.interface == interface.name, "\(method.qualifiedName) is listed under \(interface.name)")
            guard let declared = idl.methods[method.name] else { continue }
            let (input, output) = try Self.shapes(of: method)
            #expect(input.differences(from: declared.input, at: "").isEmpty, "\(method.qualifiedName) parameters: \(input.differences(from: declared.input, at: ""))")
            #expect(output.differences(from: declared.output, at: "").isEmpty, "\(method.qualifiedName) reply: \(output.differences(from: declared.output, at: ""))")
        }
        #expect(interface.errors.map { $0.errorName }.sorted() == idl.errors.keys.sorted())
        for error in interface.errors {
            guard let declared = idl.errors[error.errorName] else { continue }
            let shape = try Self.shape(of: error)
            #expect(shape.differences(from: declared, at: "").isEmpty, "\(interface.name).\(error.errorName): \(shape.differences(from: declared, at: ""))")
        }
    }

    @Test func anErrorIsNamedInTheCalledInterfaceWhenItDeclaresItElseWhereItLives() {
        let invalid = RemindErrors.InvalidInput(parameter: "weight", message: "m")
        #expect(Catalogue.error(invalid, calledIn: Fitness.interface).name == "io.remindd.Fitness.InvalidInput")
        #expect(Catalogue.error(invalid, calledIn: Habits.interface).name == "io.remindd.Habits.InvalidInput")
        // Fitness does not declare ReminderNotFound: it is named where it is declared.
        let notFound = RemindErrors.ReminderNotFound(reminder: "x")
        #expect(Catalogue.error(notFound, calledIn: Fitness.interface).name == "io.remindd.Reminders.ReminderNotFound")
        #expect(Catalogue.error(notFound, calledIn: Fitness.interface).string("reminder") == "x")
    }

    /// The comparison itself finds each kind of difference (so a pass above means something).
    @Test func theComparisonFindsAMissingFieldAWrongTypeAndWrongOptionality() throws {
        let idl = try VarlinkIDL("""
            interface org.example.test
            type Inner (n: int)
            method M(a: string, b: ?int, c: []Inner) -> ()
            """)
        let declared = try #require(idl.methods["M"]).input
        struct Same: Decodable { let a: String; let b: Int?; let c: [Inner]; struct Inner: Decodable { let n: Int64 } }
        struct Missing: Decodable { let a: String; let c: [Inner]; struct Inner: Decodable { let n: Int } }
        struct WrongType: Decodable { let a: String; let b: Int?; let c: [Inner]; struct Inner: Decodable { let n: String } }
        struct NotOptional: Decodable { let a: String; let b: Int; let c: [Inner]; struct Inner: Decodable { let n: Int } }
        #expect(try ShapeRecorder.shape(of: Same.self).differences(from: declared, at: "").isEmpty)
        #expect(try ShapeRecorder.shape(of: Missing.self).differences(from: declared, at: "") == ["b: only in the IDL"])
        #expect(try ShapeRecorder.shape(of: WrongType.self).differences(from: declared, at: "") == ["c[].n: Swift string, IDL int"])
        #expect(try ShapeRecorder.shape(of: NotOptional.self).differences(from: declared, at: "") == ["b: Swift int, IDL ?int"])
    }

    private static func shapes<Method: VarlinkMethod>(of method: Method.Type) throws -> (TypeShape, TypeShape) {
        (try ShapeRecorder.shape(of: Method.Parameters.self), try ShapeRecorder.shape(of: Method.Reply.self))
    }

    private static func shape<Error: VarlinkErrorParameters>(of error: Error.Type) throws -> TypeShape {
        try ShapeRecorder.shape(of: error)
    }
}
