import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import SQLKit
import Testing

/// The repository maps rows to domain records at its edge: flags stored as 0/1 come back as `Bool`, lists stored as
/// JSON text come back as arrays, words come back typed, on SQLite and (when `ENTITLE_TEST_DATABASE_URL` is set) on
/// PostgreSQL. Reads go through a second repository, so they come from the database and not from the catalog cache.
@Suite struct RecordMappingTests {
    /// Runs `body` with a writer and a reader repository on a fresh, migrated database of each available engine.
    static func withRepositories(_ body: (_ writer: Repository, _ reader: Repository) async throws -> Void) async throws {
        try await ScratchEngines.withEach { engine in try await body(Repository(sql: engine.sql), Repository(sql: engine.sql)) }
    }

    static func mvpd(id: String, flags: Bool) -> MVPDRecord {
        MVPDRecord(
            id: id, displayName: "Name " + id, logoUrl: "http://logo/" + id, kind: flags ? .saml : .tempPass,
            entityId: flags ? "urn:" + id : nil, ssoUrl: nil, sloUrl: flags ? "http://slo" : nil,
            certificates: flags ? ["PEM-1", "PEM \"2\""] : [], authorizationUrl: nil, authorizationKey: nil,
            requiresSafariViewController: flags, enablePlatformServices: flags, boardingStatus: flags ? "PICKER" : nil,
            platformMappingId: flags ? "map-" + id : nil, displayInPlatformPicker: flags, temppassMinutes: flags ? nil : 10,
            profileTtlSeconds: 3600, encryptedAttributes: flags ? ["zip", "householdID"] : [], temppassResourceLimit: nil)
    }

    @Test func catalogRecordsRoundTrip() async throws {
        try await Self.withRepositories { writer, reader in
            let requestor = RequestorRecord(
                id: "REQ", name: "Requestor", domains: ["a.example", "b.example"], maxResources: 7,
                metadataCertificatePem: nil)
            try await writer.catalogStore.upsertRequestor(requestor)
            #expect(try await reader.catalogStore.requestor(id: "REQ") == requestor)

            for record in [Self.mvpd(id: "Flags", flags: true), Self.mvpd(id: "Plain", flags: false)] {
                try await writer.catalogStore.upsertMVPD(record)
                #expect(try await reader.catalogStore.mvpd(id: record.id) == record)
            }
            #expect(try await reader.catalogStore.allMVPDs().map(\.id) == ["Flags", "Plain"])

            let options = MVPDSAMLOptionsRecord(
                mvpdId: "Flags", attributeMapping: ["userID": ["NameID"], "zip": ["urn:zip", "zip"]],
                allowRSASHA1: true, authorizeAll: false)
            try await writer.mvpdOptionsStore.upsertSAMLOptions(options)
            #expect(try await reader.mvpdOptionsStore.samlOptions(mvpd: "Flags") == options)
        }
    }

    @Test func registrationFlagsAndListsRoundTrip() async throws {
        try await Self.withRepositories { writer, reader in
            let statement = SoftwareStatementRecord(
                softwareId: "sw", requestorId: "REQ", name: "App",
                redirectURIs: ["adobepass://ios.app", "app://cb?x=1&y=2"], issuedAt: 5, revoked: false)
            try await writer.clientStore.insertSoftwareStatement(statement)
            #expect(try await reader.clientStore.softwareStatement(id: "sw") == statement)
            let client = ClientRecord(
                clientId: "c1", secretHash: "hash", softwareId: "sw", requestorId: "REQ",
                redirectURIs: ["adobepass://ios.app"], issuedAt: 6, revoked: false)
            try await writer.clientStore.insertClient(client)
            #expect(try await reader.clientStore.client(id: "c1") == client)
            #expect(try await writer.clientStore.revokeClient(id: "c1"))
            #expect(try await Repository(sql: writer.sql).clientStore.client(id: "c1")?.revoked == true)

            let key = LegacyAppKeyRecord(publicKey: "pub", requestorId: "REQ", privateKey: "secret", createdAt: 1, revoked: false)
            try await writer.legacyStore.insertLegacyAppKey(key)
            #expect(try await reader.legacyStore.legacyAppKeys(requestor: "REQ") == [key])
        }
    }

    /// Words written by a newer instance sharing the database are read, unchanged, and match no known constant.
    @Test func unknownStoredWordsAreReadUnchanged() async throws {
        try await Self.withRepositories { writer, reader in
            var record = Self.mvpd(id: "Future", flags: true)
            record.kind = MVPDKind(rawValue: "oidc")
            try await writer.catalogStore.upsertMVPD(record)
            let read = try await reader.catalogStore.mvpd(id: "Future")
            #expect(read?.kind.rawValue == "oidc" && read?.isTempPass == false)

            let session = AuthSessionRecord(
                code: "CODE1", sessionId: "s", requestorId: "REQ", clientId: "c", deviceId: "d",
                mvpdId: nil, domainName: nil, redirectUrl: nil, status: .pending, authnRequestId: nil,
                failure: nil, createdAt: 1, notAfter: 2)
            #expect(try await writer.sessionStore.insertSession(session))
            try await writer.sql.raw("UPDATE auth_sessions SET status = 'expired' WHERE code = 'CODE1'").run()
            let stored = try await reader.sessionStore.session(code: "CODE1")
            #expect(stored?.status == AuthenticationSessionStatus(rawValue: "expired"))
            #expect(stored?.status != .authenticated)

            try await writer.degradationStore.saveDegradationRule(
                DegradationRuleRecord(
                    requestorId: "REQ", mvpdId: "Future",
                    rule: DegradationRule(rawValue: "authn-none"),
                    startsAt: 0, endsAt: 10, createdAt: 0))
            #expect(try await reader.degradationStore.degradationRules(requestor: "REQ").map(\.rule.rawValue) == ["authn-none"])
        }
    }
}
