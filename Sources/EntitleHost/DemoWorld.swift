import EntitleCore
import DemoMVPD
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation
import SAML

/// What the demo seeding produced, printed by `entitle serve`.
package struct DemoWorldInfo: Sendable {
    /// The requestor id.
    package let requestorID: String
    /// Path of the demo software statement.
    package let softwareStatementPath: String
    /// The software statement itself.
    package let softwareStatement: String
    /// Path of the programmer's private key for encrypted user metadata.
    package let programmerKeyPath: String
}

/// The seeded demo world of the design: requestor `REF`, the DemoMVPD providers, Demo Proxy and its proxied MVPDs,
/// TempPass and the app's statement.
enum DemoWorld {
    static let requestorID = "REF"
    static let redirectURIs = ["adobepass://ios.app", "entitle-demo://callback"]

    /// The DemoMVPD's signing identity and authorization API key. They live in the database, so that every instance on
    /// one database signs with the same key and accepts the same CSRF and session cookies (derived from that key): a
    /// login started through one instance can finish through another. An older data directory's files are adopted
    /// when the database has none; the files are kept as a copy of what the database holds.
    static func demoMVPDSecrets(service: EntitleService, dataDirectory: String, now: Date) async throws -> (identity: SigningIdentity, apiKey: String)
    {
        let folder = dataDirectory + "/demo-mvpd"
        let keyPath = folder + "/idp-key.pem", certPath = folder + "/idp-cert.pem", apiKeyPath = folder + "/api-key"
        let stored = try await service.repository.keyStore.sharedSecret(name: "demo-mvpd", now: service.clock.nowMilliseconds()) {
            if let key = try? String(contentsOfFile: keyPath, encoding: .utf8), let cert = try? String(contentsOfFile: certPath, encoding: .utf8),
                let apiKey = try? String(contentsOfFile: apiKeyPath, encoding: .utf8),
                (try? SigningIdentity(privateKeyPEM: key, certificatePEM: cert)) != nil
            {
                return encodeFields(["key": key, "cert": cert, "apiKey": apiKey.trimmingCharacters(in: .whitespacesAndNewlines)])
            }
            let identity = try SigningIdentity.generate(commonName: "Entitle DemoMVPD", now: now, keys: .reusableInTests)
            return encodeFields(["key": identity.privateKeyPEM, "cert": identity.certificatePEM, "apiKey": UUID().uuidString + UUID().uuidString])
        }
        guard let fields = try? JSONDecoder().decode([String: String].self, from: Data(stored.utf8)),
            let key = fields["key"], let cert = fields["cert"], let apiKey = fields["apiKey"]
        else {
            throw ConfigurationError("The stored DemoMVPD secrets are unreadable.")
        }
        let identity = try SigningIdentity(privateKeyPEM: key, certificatePEM: cert)
        try PrivateFile.mirror(key, to: keyPath)
        try PrivateFile.mirror(cert, to: certPath)
        try PrivateFile.mirror(apiKey, to: apiKeyPath)
        return (identity, apiKey)
    }

    /// A JSON object of string fields (sorted keys).
    static func encodeFields(_ fields: [String: String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The programmer's key pair for encrypted user metadata, shared through the database like the DemoMVPD's.
    static func programmerIdentity(service: EntitleService, keyPath: String, certPath: String) async throws -> SigningIdentity {
        let stored = try await service.repository.keyStore.sharedSecret(name: "demo-programmer", now: service.clock.nowMilliseconds()) {
            if let key = try? String(contentsOfFile: keyPath, encoding: .utf8), let cert = try? String(contentsOfFile: certPath, encoding: .utf8),
                (try? SigningIdentity(privateKeyPEM: key, certificatePEM: cert)) != nil
            {
                return encodeFields(["key": key, "cert": cert])
            }
            let identity = try SigningIdentity.generate(
                commonName: "Reference Network user metadata", now: service.clock.now(), keys: .reusableInTests)
            return encodeFields(["key": identity.privateKeyPEM, "cert": identity.certificatePEM])
        }
        guard let fields = try? JSONDecoder().decode([String: String].self, from: Data(stored.utf8)),
            let key = fields["key"], let cert = fields["cert"]
        else {
            throw ConfigurationError("The stored demo programmer key is unreadable.")
        }
        try PrivateFile.mirror(key, to: keyPath)
        try PrivateFile.mirror(cert, to: certPath)
        return try SigningIdentity(privateKeyPEM: key, certificatePEM: cert)
    }

    /// Seeds (or re-synchronises) the demo world. Idempotent: endpoints follow the current base URL.
    /// With `proxy`, Demo Proxy and its proxied MVPDs too (``seedDemoProxy(service:demo:demoBaseURL:)``).
    static func seed(service: EntitleService, demo: DemoMVPD, demoBaseURL: String, dataDirectory: String, proxy: Bool = true) async throws
        -> DemoWorldInfo
    {
        let demoFolder = dataDirectory + "/demo"
        let programmerKeyPath = demoFolder + "/programmer-key.pem"
        let programmerCertPath = demoFolder + "/programmer-cert.pem"
        let programmer = try await programmerIdentity(service: service, keyPath: programmerKeyPath, certPath: programmerCertPath)
        if let seeded = try await service.repository.catalogStore.mvpd(id: "DemoCable")?.ssoUrl, !seeded.hasPrefix(demoBaseURL + "/") {
            service.logger.warning(
                "demo world re-pointed to this instance's public URL: instances sharing a database need the same --public-url",
                metadata: ["previous": "\(seeded.logEscaped)", "now": "\(demoBaseURL.logEscaped)"])
        }
        try await service.requestors.save(
            id: requestorID, name: "Reference Network", domains: ["ios.app", "localhost", "127.0.0.1"],
            maxResources: 10, metadataCertificatePEM: programmer.certificatePEM)
        for provider in DemoMVPD.providers {
            guard let metadata = demo.metadata(for: provider.id) else { continue }
            var options = MVPDOptions(
                displayName: provider.displayName, logoURL: provider.logoURL(baseURL: demoBaseURL),
                authorizationURL: "\(demoBaseURL)/\(provider.id)/authorize",
                authorizationKey: demo.configuration.authorizationAPIKey)
            options.requiresSafariViewController = provider.requiresSafariViewController
            options.enablePlatformServices = provider.platformSSO
            options.boardingStatus = provider.platformSSO ? BoardingStatus.supported.rawValue : nil
            options.displayInPlatformPicker = provider.platformSSO
            options.encryptedAttributes = ["zip"]
            try await service.mvpds.importSAML(id: provider.id, metadataXML: metadata.xml(), options: options, requestors: [requestorID])
            // Preflight by lineup where the DemoMVPD sends one (DemoSSO unless configured otherwise).
            if demo.configuration.lineupProviders.contains(provider.id) {
                try await service.repository.mvpdOptionsStore.setPreflightLineup(
                    requestor: requestorID, mvpd: provider.id, attribute: demo.configuration.lineupAttribute)
            }
        }
        try await seedDemoStream(service: service, demo: demo, demoBaseURL: demoBaseURL)
        if proxy { try await seedDemoProxy(service: service, demo: demo, demoBaseURL: demoBaseURL) }
        try await service.mvpds.saveTempPass(
            id: "TempPass", displayName: "Try it free", logoURL: service.configuration.publicBaseURL + "/logos/TempPass.svg",
            minutes: 10, requestors: [requestorID])
        try await service.mvpds.saveTempPass(
            id: "TempPassPromo", displayName: "Free preview: 3 videos",
            logoURL: service.configuration.publicBaseURL + "/logos/TempPassPromo.svg",
            minutes: 24 * 60, resourceLimit: 3, requestors: [requestorID])
        let statementPath = demoFolder + "/software-statement.jwt"
        var statement = (try? String(contentsOfFile: statementPath, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if !(await service.applications.isApproved(softwareStatement: statement)) {
            statement = try await service.applications.issueSoftwareStatement(
                requestor: requestorID, name: "Reference TV", redirectURIs: redirectURIs
            ).jwt
            try PrivateFile.write(statement, to: statementPath)
        }
        return DemoWorldInfo(
            requestorID: requestorID, softwareStatementPath: statementPath, softwareStatement: statement,
            programmerKeyPath: programmerKeyPath)
    }
}

/// Writes files that hold secrets: created with mode 0600 in a 0700 folder.
extension DemoWorld {
    /// DemoStream, the OAuth 2.0 demo MVPD: the DemoMVPD's authorization-code provider (client `entitle-demo`, the
    /// authorization API key as its secret), REST authorization with the user's access token.
    static func seedDemoStream(service: EntitleService, demo: DemoMVPD, demoBaseURL: String) async throws {
        let stream = DemoProvider.demoStream
        let base = stream.entityID(baseURL: demoBaseURL)
        var options = MVPDOptions(
            displayName: stream.displayName, logoURL: stream.logoURL(baseURL: demoBaseURL), authorizationURL: base + "/rest/authz")
        options.authorizationProtocol = .rest
        options.encryptedAttributes = ["zip"]
        var settings = OAuth2MVPDSettings(
            authorizeURL: base + "/oauth2/authorize", tokenURL: base + "/oauth2/token", userinfoURL: base + "/oauth2/userinfo",
            logoutURL: base + "/oauth2/logout", clientID: DemoMVPD.oauth2ClientID, clientSecret: demo.configuration.authorizationAPIKey)
        settings.issuer = base
        settings.scopes = ["openid", "profile"]
        settings.allowPlainHTTP = true  // the demo runs wherever `serve` listens, https or not
        try await service.oauth2MVPDs.save(id: stream.id, options: options, oauth2: settings, requestors: [requestorID])
    }
}

enum PrivateFile {
    static func write(_ text: String, to path: String) throws {
        try DataDirectory.writePrivateFile(Data(text.utf8), to: path)
    }

    /// Writes `text` unless the file already holds exactly it.
    static func mirror(_ text: String, to path: String) throws {
        if (try? String(contentsOfFile: path, encoding: .utf8)) == text { return }
        try write(text, to: path)
    }
}
