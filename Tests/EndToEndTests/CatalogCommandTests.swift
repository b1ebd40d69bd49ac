import EntitleTesting
import Foundation
import Testing

/// `entitle admin catalog export|apply` as an operator runs it, the built binary on a live service's storage: the
/// export with its secrets as 0600 files, a dry run and a second apply that change nothing, an edit that is an update,
/// and a file with a typo refused with its path and exit status 1.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CatalogCommandTests {
    @Test func theCatalogIsExportedWithItsSecretsAsFilesAndAppliedBack() async throws {
        try await LocalService.run { service in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-catalog-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("catalog.yaml")
            let secrets = folder.appendingPathComponent("secrets")

            let export = try await AdminCommandTests.admin(
                service, ["catalog", "export", "--out", file.path, "--secrets-dir", secrets.path])
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stderr.contains("4 secrets written"), "\(export.stderr)")
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(text.contains("file: secrets/DemoCable-authorization-key"), "\(text.prefix(400))")
            let keyFile = secrets.appendingPathComponent("DemoCable-authorization-key")
            let key = try String(contentsOf: keyFile, encoding: .utf8)
            #expect(!key.isEmpty && !text.contains(key), "the secret is in its file only")
            #expect(try await service.service.mvpds.mvpd(id: "DemoCable")?.authorizationKey == key)
            let mode = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(try FileManager.default.attributesOfItem(atPath: secrets.path)[.posixPermissions] as? Int == 0o700)

            let dryRun = try await AdminCommandTests.admin(service, ["catalog", "apply", "--file", file.path, "--dry-run"])
            #expect(dryRun.status == 0 && dryRun.stdout.hasPrefix("No change."), "\(dryRun.stdout) \(dryRun.stderr)")

            try text.replacingOccurrences(of: "maxResources: 10", with: "maxResources: 11").write(to: file, atomically: true, encoding: .utf8)
            let update = try await AdminCommandTests.admin(service, ["catalog", "apply", "--file", file.path])
            #expect(update.status == 0 && update.stdout.contains("~ update requestor REF (maxResources)"), "\(update.stdout) \(update.stderr)")
            #expect(update.stdout.contains("0 to create, 1 to update, 0 to remove, 13 unchanged, 0 not in the file (applied)"), "\(update.stdout)")
            let again = try await AdminCommandTests.admin(service, ["catalog", "apply", "--file", file.path, "--json"])
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any], "\(again.stderr)")
            #expect(plan["changes"] as? Int == 0)
            let changes = try await AdminCommandTests.admin(service, ["changes", "list", "--limit", "1", "--newest-first"])
            #expect(changes.stdout.contains("requestor.update") && changes.stdout.contains("catalog.apply"), "\(changes.stdout)")

            let typo = folder.appendingPathComponent("typo.yaml")
            try text.replacingOccurrences(of: "  maxResources: 10", with: "  maxResource: 10").write(to: typo, atomically: true, encoding: .utf8)
            let refused = try await AdminCommandTests.admin(service, ["catalog", "apply", "--file", typo.path])
            #expect(refused.status == 1, "\(refused.stdout)")
            #expect(refused.stderr.contains("typo.yaml: 1 problem, nothing applied"), "\(refused.stderr)")
            #expect(refused.stderr.contains("requestors[0].maxResource: no such field"), "\(refused.stderr)")
        }
    }
}
