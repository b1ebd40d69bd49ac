import ChildProcess
import EntitleClients
import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// Privacy requests: a device or an MVPD user signed in over REST API v2 is exported, then erased through the
/// admin API and through `entitle admin privacy` while the service runs. Afterwards no instance answers a profile for
/// it, the database file (SQLite, with its write-ahead log) holds neither its device id nor its MVPD user id, and the
/// changes log records both requests without either identifier. On SQLite, and on PostgreSQL with
/// `ENTITLE_TEST_DATABASE_URL` (where the file scan does not apply).
@Suite struct PrivacyRequestTests {
    /// Whether any of the SQLite files of `directory` contains `text`.
    static func databaseFiles(in directory: String, contain text: String) throws -> Bool {
        let needle = Data(text.utf8)
        for suffix in ["", "-wal", "-shm"] {
            let path = directory + "/entitle.sqlite" + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            if try Data(contentsOf: URL(fileURLWithPath: path)).range(of: needle) != nil { return true }
        }
        return false
    }

    /// The rows of one table in an export.
    static func rows(_ export: [String: Any], _ table: String) -> [[String: Any]] {
        let stores = export["stores"] as? [[String: Any]] ?? []
        return stores.first { $0["table"] as? String == table }?["rows"] as? [[String: Any]] ?? []
    }

    /// The `entitle` binary (``EntitleBinary``).
    static func binary() throws -> String { try EntitleBinary.path() }

    /// Runs `entitle admin privacy …` on the service's storage; its standard output and standard error come together.
    static func privacyCommand(_ local: LocalService, _ arguments: [String]) throws -> ChildProcess.Result {
        var storage = ["--data-dir", local.dataDirectory]
        if let url = local.host.configuration.databaseURL { storage += ["--database-url", url] }
        return try ChildProcess.run(try binary(), ["admin", "privacy"] + arguments + storage)
    }

    /// The JSON object a command printed after any warning lines.
    static func printedObject(_ output: String) throws -> [String: Any] {
        let start = try #require(output.firstIndex(of: "{"), "no JSON in: \(output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output[start...].utf8)) as? [String: Any], "\(output)")
    }

    @Test func aDeviceErasedThroughTheAdminAPIHasNoProfileOnAnyInstanceAndNoTraceInTheDatabaseFile() async throws {
        try await LocalService.runTwoInstances(profileCacheBound: ProfileCacheTests.bound) { second, first in
            try await ProfileCacheTests.waitForFeeds(first, second)
            let device = "privacy-device-" + UUID().uuidString
            let tv = try await first.client(device: device)
            guard case .external = try await first.signIn(tv, user: "alice").outcome else { throw BrowserError("not signed in") }
            let viaSecond = ProfileCacheTests.same(tv, on: second)
            // Both instances hold the profile (and an MVPD answer) in memory.
            #expect(try await ProfileCacheTests.authorized(tv))
            #expect(try await ProfileCacheTests.authorized(viaSecond))
            #expect(try await ProfileCacheTests.profiles(viaSecond)["DemoCable"] != nil)
            // An operator's TempPass reset names the device in the changes log.
            _ = try await first.service.support.resetTempPass(requestor: "REF", mvpd: "TempPass", device: device, actor: "test")

            let writer = try #require(try await AdminAPITests.operatorSession(first, "dpo", role: .readWrite).object["token"] as? String)
            let reader = try #require(try await AdminAPITests.operatorSession(first, "viewer", role: .readOnly).object["token"] as? String)

            let export = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/export", json: ["deviceId": device, "reason": "Subject access request 2026-11-28"], token: writer)
            #expect(export.status == 200, "\(export.text)")
            let profiles = Self.rows(export.object, "profiles")
            #expect(profiles.count == 1 && profiles.first?["device_id"] as? String == device && profiles.first?["mvpd_id"] as? String == "DemoCable")
            let userID = try #require(profiles.first?["user_id"] as? String)
            #expect(userID == "dc-alice-7f3a")
            #expect(!Self.rows(export.object, "auth_sessions").isEmpty)
            #expect(Self.rows(export.object, "admin_changes").contains { $0["action"] as? String == "temppass.reset" })
            #expect((export.object["reports"] as? String)?.contains("no device id") == true)

            let refused = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/erase", json: ["deviceId": device, "reason": "Erasure request"], token: reader)
            #expect(refused.status == 403, "\(refused.text)")
            let noReason = try await AdminAPITests.call(first, .POST, "/admin/api/privacy/erase", json: ["deviceId": device], token: writer)
            #expect(noReason.status == 400 && noReason.code == "invalid_value", "\(noReason.text)")
            let both = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/erase", json: ["deviceId": device, "userId": userID, "reason": "x"], token: writer)
            #expect(both.status == 400 && both.code == "invalid_request", "\(both.text)")

            let erase = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/erase", json: ["deviceId": device, "reason": "Erasure request 2026-11-28"], token: writer)
            #expect(erase.status == 200, "\(erase.text)")
            #expect((erase.object["removed"] as? [String: Any])?["profiles"] as? Int == 1, "\(erase.text)")
            #expect((erase.object["changesScrubbed"] as? Int ?? 0) >= 1, "\(erase.text)")

            if first.host.engine.kind == .sqlite {
                #expect(try !Self.databaseFiles(in: first.dataDirectory, contain: device), "the device id is still in the database file")
                #expect(try !Self.databaseFiles(in: first.dataDirectory, contain: userID), "the MVPD user id is still in the database file")
            }

            // The instance that erased: at once. The other: within the profile feed's bound.
            #expect(try await ProfileCacheTests.profiles(tv).isEmpty)
            #expect(try await !ProfileCacheTests.authorized(tv))
            try await Task.sleep(for: ProfileCacheTests.settle)
            #expect(try await ProfileCacheTests.profiles(viaSecond).isEmpty)
            #expect(try await !ProfileCacheTests.authorized(viaSecond))

            let again = try await AdminAPITests.call(
                second, .POST, "/admin/api/privacy/export", json: ["deviceId": device, "reason": "Check after erasure"], token: writer)
            #expect(again.status == 200, "\(again.text)")
            let left = (again.object["stores"] as? [[String: Any]] ?? []).filter { !(($0["rows"] as? [Any]) ?? []).isEmpty }
            #expect(left.isEmpty, "\(again.text)")

            let changes = try await AdminAPITests.call(first, .GET, "/admin/api/changes", token: writer)
            #expect(changes.status == 200)
            #expect(!changes.text.contains(device) && !changes.text.contains(userID), "\(changes.text)")
            let entries = try #require(changes.json as? [[String: Any]])
            let requests = entries.filter { ($0["action"] as? String)?.hasPrefix("privacy.") == true }
            #expect(requests.compactMap { $0["action"] as? String } == ["privacy.export", "privacy.erase", "privacy.export"], "\(requests)")
            #expect(requests.allSatisfy { ($0["target"] as? String)?.hasPrefix("device:") == true && $0["actor"] as? String == "operator:dpo" })
            #expect(Set(requests.compactMap { $0["target"] as? String }).count == 1, "the same keyed hash for the same device")
            #expect(changes.text.contains("Erasure request 2026-11-28"))
            #expect(entries.contains { $0["action"] as? String == "temppass.reset" && "\($0["after"] ?? "")".contains("[erased]") }, "\(entries)")

            // A requestor-scoped operator makes privacy requests for its requestors only; an MVPD partner makes none.
            for (name, scope) in [
                ("ref-team", OperatorScope(requestors: ["REF"], mvpds: [])), ("partner", OperatorScope(requestors: [], mvpds: ["DemoCable"])),
            ] {
                _ = try await first.service.operatorChanges.add(
                    username: name, role: .readWrite, password: AdminAPITests.password, scope: scope, actor: "test")
            }
            func token(_ name: String) async throws -> String {
                let session = try await AdminAPITests.call(
                    first, .POST, "/admin/api/session", json: ["username": name, "password": AdminAPITests.password])
                return try #require(session.object["token"] as? String, "\(session.text)")
            }
            let team = try await token("ref-team"), partner = try await token("partner")
            let everywhere = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/export", json: ["deviceId": device, "reason": "Access request"], token: team)
            #expect(everywhere.status == 403 && everywhere.code == "out_of_scope", "\(everywhere.text)")
            let ownRequestor = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/export", json: ["deviceId": device, "requestor": "REF", "reason": "Access request"], token: team)
            #expect(ownRequestor.status == 200, "\(ownRequestor.text)")
            let byPartner = try await AdminAPITests.call(
                first, .POST, "/admin/api/privacy/erase", json: ["deviceId": device, "requestor": "REF", "reason": "Erasure"], token: partner)
            #expect(byPartner.status == 403 && byPartner.code == "out_of_scope", "\(byPartner.text)")
        }
    }

    @Test func theCLIExportsAndErasesAnMVPDUserWhileTheServiceRuns() async throws {
        let directory = NSTemporaryDirectory() + "entitle-privacy-cli-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await LocalService.run(dataDirectory: directory, profileCacheBound: ProfileCacheTests.bound) { local in
            try await ProfileCacheTests.waitForFeeds(local)
            let phone = try await local.client(device: "privacy-phone-" + UUID().uuidString)
            guard case .external = try await local.signIn(phone, user: "bob").outcome else { throw BrowserError("not signed in") }
            #expect(try await ProfileCacheTests.authorized(phone))
            #expect(try await ProfileCacheTests.profiles(phone)["DemoCable"] != nil)
            let userID = "dc-bob-2c9e"
            // The reports count the user among their distinct accounts (written at the flush).
            try await local.service.reports.flush()

            let export = try Self.privacyCommand(local, ["export", "--user-id", userID, "--reason", "Access request 7"])
            #expect(export.status == 0, "\(export.output)")
            let exported = try Self.printedObject(export.output)
            let profiles = Self.rows(exported, "profiles")
            #expect(profiles.count == 1 && profiles.first?["device_id"] as? String == phone.deviceID, "\(export.output)")
            #expect(profiles.first?["user_id"] as? String == userID)
            #expect(!Self.rows(exported, "report_accounts").isEmpty, "\(export.output)")

            let missing = try Self.privacyCommand(local, ["erase", "--user-id", userID])
            #expect(missing.status != 0 && missing.output.contains("--reason"), "\(missing.output)")
            let erase = try Self.privacyCommand(local, ["erase", "--user-id", userID, "--reason", "Erasure request 7"])
            #expect(erase.status == 0, "\(erase.output)")
            let erased = try Self.printedObject(erase.output)
            #expect((erased["removed"] as? [String: Any])?["profiles"] as? Int == 1, "\(erase.output)")
            #expect(!erase.output.contains(userID))
            #expect(((erased["removed"] as? [String: Any])?["report_accounts (unlinked)"] as? Int ?? 0) >= 1, "\(erase.output)")

            if local.host.engine.kind == .sqlite {
                #expect(try !Self.databaseFiles(in: directory, contain: userID), "the MVPD user id is still in the database file")
                #expect(try !Self.databaseFiles(in: directory, contain: phone.deviceID), "the device id is still in the database file")
            }
            // Erased by another process: the running service stops answering the profile within the feed's bound.
            try await Task.sleep(for: ProfileCacheTests.settle)
            #expect(try await ProfileCacheTests.profiles(phone).isEmpty)
            #expect(try await !ProfileCacheTests.authorized(phone))

            let recorded = try await local.service.changes.recorded(since: 0).filter { $0.action.hasPrefix("privacy.") }
            #expect(recorded.map(\.action) == ["privacy.export", "privacy.erase"])
            #expect(recorded.allSatisfy { $0.actor.hasPrefix("cli:") && $0.target.hasPrefix("user:") })
            #expect(recorded.last?.description == "Erasure request 7")
            let text = recorded.map { [$0.target, $0.valueAfter ?? "", $0.description ?? ""].joined(separator: " ") }.joined()
            #expect(!text.contains(userID) && !text.contains(phone.deviceID), "\(text)")
            // Nothing is left, the reports' pseudonymous account included.
            let left = try await local.service.privacy.export(PrivacySubject(kind: .user, identifier: userID), reason: "check", actor: "test")
            #expect(left.stores.allSatisfy { $0.rows.isEmpty }, "\(left.stores.filter { !$0.rows.isEmpty }.map(\.table))")
        }
    }
}
