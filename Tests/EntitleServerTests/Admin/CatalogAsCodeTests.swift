import AsyncHTTPClient
import Crypto
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleHost
import EntitleModel
import EntitleTesting
import Foundation
import Logging
import NIOCore
import Testing

/// The catalog as code on the engine under test (SQLite, or PostgreSQL with `ENTITLE_TEST_DATABASE_URL`):
/// the demo world's catalog, exported as YAML and applied to an empty service, exports the same and a second apply
/// changes nothing; a changed field is an update; what the file does not name is kept until `--prune`; a document with
/// any problem is refused whole with each problem's path, and nothing changes.
@Suite(.timeLimit(.minutes(5))) struct CatalogAsCodeTests {
    /// Runs `body` on a service without the demo world, on its own data directory or PostgreSQL database.
    static func withEmptyService(_ body: @escaping @Sendable (EntitleService) async throws -> Void) async throws {
        try await RouterService.run(demo: false) { router in try await body(router.host.service) }
    }

    /// The document as `entitle admin catalog apply` reads it back: its YAML text, then each secret from its "file" (the
    /// values the export had).
    static func readBack(_ document: CatalogDocument) throws -> (text: String, document: CatalogDocument) {
        let text = try CatalogYAML.encode(document)
        let files = Dictionary(document.secretPaths.map { ($0.secret.file ?? "", $0.secret.value ?? "") }, uniquingKeysWith: { a, _ in a })
        let read = try CatalogDocument.read(json: CatalogYAML.json(from: text, source: "catalog.yaml"), source: "catalog.yaml")
        #expect(read.secretPaths.allSatisfy { $0.secret.value == nil }, "the text holds no secret")
        return (text, read.mappingSecrets { _, secret in CatalogSecret(file: secret.file, value: secret.file.flatMap { files[$0] }) })
    }

    static func apply(
        _ service: EntitleService, _ document: CatalogDocument, dryRun: Bool = false, prune: Bool = false
    ) async throws -> CatalogPlan {
        try await service.catalogAsCode.apply(document, source: "catalog.yaml", dryRun: dryRun, prune: prune, actor: "cli:test")
    }

    /// JSON text of a value, keys sorted, to compare two services' views.
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func theDemoCatalogAppliedToAnEmptyServiceIsTheSameAndASecondApplyChangesNothing() async throws {
        try await RouterService.run { demo in
            let exported = try await demo.service.catalogAsCode.export()
            #expect(exported.requestors.map(\.id) == ["REF"])
            #expect(exported.mvpds.map(\.id) == ["DemoCable", "DemoFiber", "DemoSSO", "DemoStream", "TempPass", "TempPassPromo"])
            #expect(exported.integrations.count == 6 && exported.softwareStatements.count == 1)
            let (text, document) = try Self.readBack(exported)
            // Secrets are references to files, never inline.
            #expect(exported.secretPaths.count == 4)
            for (path, secret) in exported.secretPaths {
                let value = try #require(secret.value, "\(path)")
                #expect(!text.contains(value), "\(path) is inline")
            }
            #expect(text.contains("file: secrets/DemoCable-authorization-key"))
            #expect(text.contains("file: secrets/DemoStream-oauth2-client-secret"))
            #expect(text.contains("preflightLineupAttribute: authorized_resources"))

            let demoViews = (
                try Self.json(try await demo.service.requestors.views()), try Self.json(try await demo.service.mvpds.views()),
                try Self.json(try await demo.service.integrations.views(requestor: nil, mvpd: nil))
            )
            try await Self.withEmptyService { empty in
                let before = try await empty.catalogAsCode.export()
                #expect(before.requestors.isEmpty && before.mvpds.isEmpty && before.softwareStatements.isEmpty)

                let first = try await Self.apply(empty, document)
                #expect(first.applied && first.changes == 14, "\(first.text)")
                #expect(first.items.allSatisfy { $0.action == .create }, "\(first.text)")

                // The same configuration: the same document, and the admin API's views of it the same.
                let again = try await empty.catalogAsCode.export()
                #expect(again == exported)
                #expect(try CatalogYAML.encode(again) == text)
                #expect(try Self.json(try await empty.requestors.views()) == demoViews.0)
                #expect(try Self.json(try await empty.mvpds.views()) == demoViews.1)
                #expect(try Self.json(try await empty.integrations.views(requestor: nil, mvpd: nil)) == demoViews.2)

                // Each change in the changes log, described as catalog.apply.
                let logged = try await empty.changes.recorded(since: 0)
                #expect(
                    Set(logged.map(\.action)).isSuperset(of: [
                        "requestor.add", "mvpd.add", "integration.enable", "integration.update", "software-statement.create",
                    ]),
                    "\(logged.map(\.action))")
                #expect(logged.allSatisfy { $0.description == CatalogOperations.changeDescription && $0.actor == "cli:test" })
                #expect(!logged.contains { ($0.valueAfter ?? "").contains(exported.secretPaths[0].secret.value!) }, "no secret in the log")

                // A second apply: no change, nothing logged.
                let second = try await Self.apply(empty, document)
                #expect(second.changes == 0 && second.items.allSatisfy { $0.action == .unchanged }, "\(second.text)")
                #expect(second.text.hasPrefix("No change."), "\(second.text)")
                #expect(try await empty.changes.recorded(since: 0).count == logged.count)
            }
        }
    }

    @Test func aChangedFieldIsAnUpdateAndWhatTheFileDoesNotNameIsRemovedOnlyWithPrune() async throws {
        try await RouterService.run { demo in
            let service = demo.service
            var document = try await service.catalogAsCode.export()
            try await service.requestors.add(
                RequestorRecord(id: "EXTRA", name: "Extra Network", domains: ["extra.example"], maxResources: 5, metadataCertificatePem: nil),
                actor: "test")
            document.requestors[0].maxResources = 12
            let cable = try #require(document.mvpds.firstIndex { $0.id == "DemoCable" })
            document.mvpds[cable].authorization?.key?.value = "a-new-authorization-key"
            document.mvpds[cable].displayName = "Demo Cable TV"

            let dryRun = try await Self.apply(service, document, dryRun: true)
            #expect(
                dryRun.items.first { $0.id == "REF" } == CatalogPlan.Item(kind: "requestor", id: "REF", action: .update, fields: ["maxResources"]))
            #expect(
                dryRun.items.first { $0.id == "DemoCable" }
                    == CatalogPlan.Item(kind: "mvpd", id: "DemoCable", action: .update, fields: ["authorization.key", "displayName"]))
            #expect(dryRun.items.first { $0.id == "EXTRA" }?.action == .notInFile)
            #expect(!dryRun.applied && dryRun.text.contains("? not in the file (kept; --prune removes it) requestor EXTRA"), "\(dryRun.text)")
            #expect(!dryRun.text.contains("a-new-authorization-key"))
            #expect(try await service.requestors.requestor(id: "REF")?.maxResources == 10, "a dry run changes nothing")

            let applied = try await Self.apply(service, document)
            #expect(applied.changes == 2, "\(applied.text)")
            #expect(try await service.requestors.requestor(id: "REF")?.maxResources == 12)
            #expect(try await service.mvpds.mvpd(id: "DemoCable")?.authorizationKey == "a-new-authorization-key")
            #expect(try await service.requestors.requestor(id: "EXTRA") != nil, "kept without --prune")

            let pruned = try await Self.apply(service, document, prune: true)
            #expect(pruned.items.first { $0.id == "EXTRA" }?.action == .remove && pruned.changes == 1, "\(pruned.text)")
            #expect(try await service.requestors.requestor(id: "EXTRA") == nil)
            let removal = try await service.changes.recorded(since: 0).filter { $0.target == "EXTRA" }.map(\.action)
            #expect(removal == ["requestor.add", "requestor.disable", "requestor.remove"])
            #expect(try await Self.apply(service, document, prune: true).changes == 0)
        }
    }

    @Test func aDocumentWithAProblemIsRefusedWholeWithEachPathAndNothingChanges() async throws {
        try await RouterService.run { demo in
            let service = demo.service
            let logged = try await service.changes.recorded(since: 0).count

            // A field this format does not have, a value of the wrong type, text that is not a catalog.
            let typo = "version: 1\nrequestors:\n- id: NEWNET\n  name: New Network\n  maxResource: 3\n"
            #expect(throws: AdminError.self) {
                try CatalogDocument.read(json: CatalogYAML.json(from: typo, source: "typo.yaml"), source: "typo.yaml")
            }
            do { _ = try CatalogDocument.read(json: CatalogYAML.json(from: typo, source: "typo.yaml"), source: "typo.yaml") } catch let error
                as AdminError
            {
                #expect(error.code == "invalid_catalog" && error.description.contains("typo.yaml: 1 problem, nothing applied"), "\(error)")
                #expect(error.description.contains("requestors[0].maxResource: no such field"), "\(error)")
            }
            let wrongType = "version: 1\nmvpds:\n- id: X\n  kind: saml\n  displayName: X\n  profileTTLSeconds: soon\n"
            do {
                _ = try CatalogDocument.read(json: CatalogYAML.json(from: wrongType, source: "t.yaml"), source: "t.yaml")
                Issue.record("a text TTL was accepted")
            } catch let error as AdminError {
                #expect(error.description.contains("mvpds[0].profileTTLSeconds: expected a whole number"), "\(error)")
            }
            #expect(throws: AdminError.self) { try CatalogYAML.json(from: "- just\n- a list\n", source: "list.yaml") }

            // Readable, but wrong: a new requestor next to a bad MVPD, an integration with an MVPD nobody has, and a new
            // OAuth 2.0 MVPD whose secret file is absent. Nothing is applied, not even the good requestor.
            var document = try await service.catalogAsCode.export()
            var newNet = CatalogDocument.Requestor(id: "NEWNET", name: "New Network")
            newNet.domains = ["new.example"]
            document.requestors.append(newNet)
            document.mvpds.append(CatalogDocument.MVPD(id: "Bad", kind: "cable", displayName: " "))
            var stream = try #require(document.mvpds.first { $0.id == "DemoStream" })
            stream.id = "StreamCo"
            stream.oauth2?.clientSecret = CatalogSecret(file: "secrets/StreamCo-oauth2-client-secret", value: nil)
            document.mvpds.append(stream)
            document.integrations.append(CatalogDocument.Integration(requestor: "NEWNET", mvpd: "Nowhere"))
            do {
                _ = try await Self.apply(service, document)
                Issue.record("an invalid document was applied")
            } catch let error as AdminError {
                #expect(error.code == "invalid_catalog", "\(error)")
                for expected in [
                    "mvpds[6].kind: use saml, oauth2 or temppass", "mvpds[6].displayName: must not be empty",
                    "integrations[6].mvpd: no MVPD Nowhere in the document or the service",
                    "mvpds[7].oauth2.clientSecret: the secret's file secrets/StreamCo-oauth2-client-secret was not found",
                ] {
                    #expect(error.description.contains(expected), "\(expected) in \(error)")
                }
            }
            #expect(try await service.requestors.requestor(id: "NEWNET") == nil)
            #expect(try await service.changes.recorded(since: 0).count == logged)
        }
    }

    @Test func theAdminAPIExportsAndAppliesTheSameDocument() async throws {
        try await LocalService.run { local in
            let token = try #require(try await AdminAPITests.operatorSession(local, "ops", role: .readWrite).object["token"] as? String)
            let key = try #require(try await local.service.mvpds.mvpd(id: "DemoCable")?.authorizationKey)

            let json = try await AdminAPITests.call(local, .GET, "/admin/api/catalog", token: token)
            #expect(json.status == 200 && json.object["version"] as? Int == 1, "\(json.text)")
            #expect((json.object["requestors"] as? [[String: Any]])?.first?["id"] as? String == "REF")
            #expect(!json.text.contains(key) && json.text.contains("secrets/DemoCable-authorization-key"))

            var request = HTTPClientRequest(url: local.baseURL + "/admin/api/catalog")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Accept", value: CatalogYAML.mediaType)
            let response = try await local.httpClient.execute(request, timeout: AnswerPatience.timeAmount)
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("application/yaml") == true)
            let yaml = String(buffer: try await response.body.collect(upTo: 4 << 20))
            #expect(yaml.hasPrefix(CatalogYAML.header) && !yaml.contains(key), "\(yaml.prefix(200))")

            let unchanged = try await AdminAPITests.call(local, .POST, "/admin/api/catalog/apply?dryRun=true", raw: yaml, token: token)
            #expect(
                unchanged.status == 200 && unchanged.object["changes"] as? Int == 0 && unchanged.object["applied"] as? Bool == false,
                "\(unchanged.text)")

            let changed = yaml.replacingOccurrences(of: "maxResources: 10", with: "maxResources: 11")
            let applied = try await AdminAPITests.call(local, .POST, "/admin/api/catalog/apply", raw: changed, token: token)
            #expect(applied.status == 200 && applied.object["changes"] as? Int == 1 && applied.object["applied"] as? Bool == true, "\(applied.text)")
            #expect(try await local.service.requestors.requestor(id: "REF")?.maxResources == 11)
            #expect(try await local.service.mvpds.mvpd(id: "DemoCable")?.authorizationKey == key, "a secret's file reference keeps its value")
            let entry = try #require(try await local.service.changes.recorded(since: 0).last { $0.action == "requestor.update" })
            #expect(entry.actor == "operator:ops" && entry.description == "catalog.apply", "\(entry)")

            let invalid = try await AdminAPITests.call(local, .POST, "/admin/api/catalog/apply", raw: "version: 1\nmvpd: []\n", token: token)
            #expect(invalid.status == 400 && invalid.code == "invalid_catalog" && invalid.text.contains("mvpd: no such field"), "\(invalid.text)")

            let reader = try #require(try await AdminAPITests.operatorSession(local, "viewer", role: .readOnly).object["token"] as? String)
            #expect(try await AdminAPITests.call(local, .GET, "/admin/api/catalog", token: reader).status == 200)
            #expect(try await AdminAPITests.call(local, .POST, "/admin/api/catalog/apply?dryRun=true", raw: yaml, token: reader).status == 403)

            // The whole catalog is service-wide: a scoped operator neither reads nor applies it.
            _ = try await local.service.operatorChanges.add(
                username: "refteam", role: .readWrite, password: AdminAPITests.password, scope: OperatorScope(requestors: ["REF"], mvpds: []),
                actor: "test")
            let signIn = try await AdminAPITests.call(
                local, .POST, "/admin/api/session", json: ["username": "refteam", "password": AdminAPITests.password])
            let scoped = try #require(signIn.object["token"] as? String, "\(signIn.text)")
            let scopedExport = try await AdminAPITests.call(local, .GET, "/admin/api/catalog", token: scoped)
            #expect(scopedExport.status == 403 && scopedExport.code == "out_of_scope", "\(scopedExport.text)")
            let scopedApply = try await AdminAPITests.call(local, .POST, "/admin/api/catalog/apply", raw: changed, token: scoped)
            #expect(scopedApply.status == 403 && scopedApply.code == "out_of_scope", "\(scopedApply.text)")
        }
    }

    @Test func everyKindOfSettingTravelsToAnEmptyService() async throws {
        try await RouterService.run { demo in
            let service = demo.service
            let actor = "test"
            let ssoKey = P256.Signing.PrivateKey().publicKey.pemRepresentation
            try await service.ssoIssuers.add(
                SSOOperations.Registration(
                    id: "firetv", type: "amazon", issuer: "https://amazon.example", publicKeys: [ssoKey], audience: "entitle", requestors: ["REF"]),
                actor: actor)
            try await service.integrations.setHBAPolicy(
                requestor: "REF", mvpd: "DemoCable", .init(profileTTLSeconds: 3600, deniedResources: ["sports"]), actor: actor)
            try await service.integrations.setSettings(
                requestor: "REF", mvpd: "DemoFiber", displayName: "Fiber for REF", logoURL: nil, profileTTLSeconds: 7200, actor: actor)
            try await service.integrations.setAuthorizationTTL(mvpd: "DemoCable", requestor: nil, seconds: 300, actor: actor)
            try await service.integrations.setAuthorizationTTL(mvpd: "DemoCable", requestor: "REF", seconds: 60, actor: actor)
            try await service.integrations.setPreflight(requestor: "REF", mvpd: "DemoStream", maxResources: 5, actor: actor)
            try await service.integrations.setEnabled(requestor: "REF", mvpd: "TempPassPromo", enabled: false, actor: actor)
            try await service.mvpds.setDisabled(id: "TempPass", true, actor: actor)
            _ = try await service.keyOperations.setMediaTokenAlgorithm(requestor: "REF", .ecdsaP256SHA256, actor: actor)
            try await service.proxyMVPDs.markProxy(id: "DemoFiber", listed: true, allowedAddresses: ["10.0.0.0/8"], actor: actor)
            let backend = try await service.applications.issueSoftwareStatement(
                requestor: "REF", name: "Backend", redirectURIs: ["https://backend.example/cb"], serverToServer: true, actor: actor)
            try await service.proxyMVPDs.allowSoftwareStatement(backend.id, proxy: "DemoFiber", actor: actor)
            let old = try await service.applications.issueSoftwareStatement(
                requestor: "REF", name: "Old app", redirectURIs: ["adobepass://ios.app"], actor: actor)
            try await service.applications.revokeSoftwareStatement(id: old.id, actor: actor)

            let exported = try await service.catalogAsCode.export()
            #expect(exported.requestors.first?.mediaTokenAlgorithm == "ecdsa-p256-sha256")
            #expect(exported.mvpds.first { $0.id == "DemoCable" }?.authorization?.ttlSeconds == 300)
            #expect(exported.mvpds.first { $0.id == "DemoFiber" }?.proxy == CatalogDocument.Proxy(listed: true, allowedAddresses: ["10.0.0.0/8"]))
            #expect(exported.mvpds.first { $0.id == "TempPass" }?.disabled == true)
            let cable = try #require(exported.integrations.first { $0.id == "REF/DemoCable" })
            #expect(cable.hba == CatalogDocument.HBA(profileTTLSeconds: 3600, deniedResources: ["sports"]) && cable.authorizationTTLSeconds == 60)
            let fiber = try #require(exported.integrations.first { $0.id == "REF/DemoFiber" })
            #expect(fiber.displayName == "Fiber for REF" && fiber.profileTTLSeconds == 7200)
            #expect(exported.integrations.first { $0.id == "REF/DemoStream" }?.preflightMaxResources == 5)
            #expect(exported.integrations.first { $0.id == "REF/TempPassPromo" }?.enabled == false)
            #expect(exported.ssoIssuers.map(\.id) == ["firetv"])
            let statements = Dictionary(exported.softwareStatements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            #expect(statements[backend.id]?.serverToServer == true && statements[backend.id]?.proxyMVPD == "DemoFiber")
            #expect(statements[old.id]?.revoked == true)

            let (text, document) = try Self.readBack(exported)
            try await Self.withEmptyService { empty in
                let first = try await Self.apply(empty, document)
                #expect(first.items.allSatisfy { $0.action == .create } && first.changes == 17, "\(first.text)")
                let again = try await empty.catalogAsCode.export()
                #expect(again == exported)
                #expect(try CatalogYAML.encode(again) == text)
                let second = try await Self.apply(empty, document)
                #expect(second.changes == 0, "\(second.text)")
            }
        }
    }
}
