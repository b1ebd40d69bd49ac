import DemoMVPD
import EntitleServer
import Foundation
import SAML

/// What the demo seeding produced, printed by `entitle serve`.
public struct DemoWorldInfo: Sendable {
    /// The requestor id.
    public let requestorID: String
    /// Path of the demo software statement.
    public let softwareStatementPath: String
    /// The software statement itself.
    public let softwareStatement: String
    /// Path of the programmer's private key for encrypted user metadata.
    public let programmerKeyPath: String
}

/// The seeded demo world of the design: requestor `REF`, the DemoMVPD providers, TempPass and the app's statement.
enum DemoWorld {
    static let requestorID = "REF"
    static let redirectURIs = ["adobepass://ios.app", "entitle-demo://callback"]

    /// Files the DemoMVPD keeps in the data directory: its signing identity and the authorization API key.
    static func demoMVPDSecrets(dataDirectory: String, now: Date) throws -> (identity: SigningIdentity, apiKey: String) {
        let folder = dataDirectory + "/demo-mvpd"
        let keyPath = folder + "/idp-key.pem", certPath = folder + "/idp-cert.pem", apiKeyPath = folder + "/api-key"
        if let key = try? String(contentsOfFile: keyPath, encoding: .utf8), let cert = try? String(contentsOfFile: certPath, encoding: .utf8),
           let apiKey = try? String(contentsOfFile: apiKeyPath, encoding: .utf8), let identity = try? SigningIdentity(privateKeyPEM: key, certificatePEM: cert) {
            return (identity, apiKey.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let identity = try SigningIdentity.generate(commonName: "Entitle DemoMVPD", now: now)
        let apiKey = UUID().uuidString + UUID().uuidString
        try PrivateFile.write(identity.privateKeyPEM, to: keyPath)
        try PrivateFile.write(identity.certificatePEM, to: certPath)
        try PrivateFile.write(apiKey, to: apiKeyPath)
        return (identity, apiKey)
    }

    /// Seeds (or re-synchronises) the demo world. Idempotent: endpoints follow the current base URL.
    static func seed(service: EntitleService, demo: DemoMVPD, demoBaseURL: String, dataDirectory: String) async throws -> DemoWorldInfo {
        let demoFolder = dataDirectory + "/demo"
        let programmerKeyPath = demoFolder + "/programmer-key.pem"
        let programmerCertPath = demoFolder + "/programmer-cert.pem"
        let programmer: SigningIdentity
        if let key = try? String(contentsOfFile: programmerKeyPath, encoding: .utf8),
           let cert = try? String(contentsOfFile: programmerCertPath, encoding: .utf8),
           let identity = try? SigningIdentity(privateKeyPEM: key, certificatePEM: cert) {
            programmer = identity
        } else {
            programmer = try SigningIdentity.generate(commonName: "Reference Network user metadata", now: service.clock.now())
            try PrivateFile.write(programmer.privateKeyPEM, to: programmerKeyPath)
            try PrivateFile.write(programmer.certificatePEM, to: programmerCertPath)
        }
        try await service.saveRequestor(id: requestorID, name: "Reference Network", domains: ["ios.app", "localhost", "127.0.0.1"],
                                        maxResources: 10, metadataCertificatePEM: programmer.certificatePEM)
        for provider in DemoMVPD.providers {
            guard let metadata = demo.metadata(for: provider.id) else { continue }
            var options = EntitleService.MVPDOptions(displayName: provider.displayName, logoURL: provider.logoURL(baseURL: demoBaseURL),
                                                     authorizationURL: "\(demoBaseURL)/\(provider.id)/authorize",
                                                     authorizationKey: demo.configuration.authorizationAPIKey)
            options.requiresSafariViewController = provider.requiresSafariViewController
            options.enablePlatformServices = provider.platformSSO
            options.boardingStatus = provider.platformSSO ? "SUPPORTED" : nil
            options.displayInPlatformPicker = provider.platformSSO
            options.encryptedAttributes = ["zip"]
            try await service.importSAMLMVPD(id: provider.id, metadataXML: metadata.xml(), options: options, requestors: [requestorID])
        }
        try await service.saveTempPassMVPD(id: "TempPass", displayName: "Try it free", logoURL: service.configuration.publicBaseURL + "/logos/TempPass.svg",
                                           minutes: 10, requestors: [requestorID])
        try await service.saveTempPassMVPD(id: "TempPassPromo", displayName: "Free preview: 3 videos",
                                           logoURL: service.configuration.publicBaseURL + "/logos/TempPass.svg",
                                           minutes: 24 * 60, resourceLimit: 3, requestors: [requestorID])
        let statementPath = demoFolder + "/software-statement.jwt"
        var statement = (try? String(contentsOfFile: statementPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !(await service.isApproved(softwareStatement: statement)) {
            statement = try await service.issueSoftwareStatement(requestor: requestorID, name: "Reference TV", redirectURIs: redirectURIs).jwt
            try PrivateFile.write(statement, to: statementPath)
        }
        return DemoWorldInfo(requestorID: requestorID, softwareStatementPath: statementPath, softwareStatement: statement,
                             programmerKeyPath: programmerKeyPath)
    }
}

/// Writes files that hold secrets: created with mode 0600 in a 0700 folder.
enum PrivateFile {
    static func write(_ text: String, to path: String) throws {
        try DataDirectory.writePrivateFile(Data(text.utf8), to: path)
    }
}
