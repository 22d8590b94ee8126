import Foundation
import VarlinkProtocol
import VarlinkServer

// The Varlink certification suite for remindd's Varlink layers (see Certification.swift):
//   varlink-certification serve PATH    serves org.varlink.certification on PATH with VarlinkServer
//   varlink-certification client PATH   runs the client half against a server on PATH with VarlinkConnection
let arguments = CommandLine.arguments
guard arguments.count == 3, ["serve", "client"].contains(arguments[1]) else {
    FileHandle.standardError.write(Data("usage: varlink-certification serve|client SOCKET-PATH\n".utf8))
    exit(64)
}
if arguments[1] == "client" {
    do {
        try CertificationClient.run(socketPath: arguments[2])
        print("Certification passed")
    } catch {
        FileHandle.standardError.write(Data("certification failed: \(error)\n".utf8))
        exit(1)
    }
} else {
    let description = String(decoding: PackageResources.org_varlink_certification_varlink, as: UTF8.self)
    let server = VarlinkServer(
        endpoint: .path(arguments[2]),
        info: VarlinkServiceInfo(vendor: "remindd", product: "varlink-certification", version: "1", url: "https://varlink.org"),
        interfaces: [Certification.interface: description], handler: CertificationService())
    try await server.run { fflush(nil) }
}
