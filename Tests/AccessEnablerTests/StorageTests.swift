import Foundation
import Testing
@testable import AccessEnabler

@Suite struct StorageTests {
    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("entitle-sdk-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func fileStoreRoundTripsWithOwnerOnlyPermissions() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileTokenStore(directory: directory)
        try await store.save(Data("secret".utf8), for: "dcr.abc")
        #expect(try await store.load("dcr.abc") == Data("secret".utf8))
        let fileAttributes = try FileManager.default.attributesOfItem(atPath: store.fileURL("dcr.abc").path)
        #expect((fileAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        try await store.save(Data("second".utf8), for: "dcr.abc")
        #expect(try await store.load("dcr.abc") == Data("second".utf8))
        try await store.remove("dcr.abc")
        try await store.remove("dcr.abc")
        #expect(try await store.load("dcr.abc") == nil)
    }

    @Test func keysCannotEscapeTheDirectory() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileTokenStore(directory: directory)
        let url = store.fileURL("../../etc/passwd")
        #expect(url.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(!url.lastPathComponent.contains("/"))
    }

    @Test func leftoverTemporaryFileFromACrashIsIgnoredAndRemoved() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileTokenStore(directory: directory)
        try await store.save(Data("good".utf8), for: "state.REF")
        // A crash after writing part of the next value leaves only a temporary file behind.
        try Data("tor".utf8).write(to: directory.appendingPathComponent(".tmp-crashed"))
        let reopened = try FileTokenStore(directory: directory)
        #expect(try await reopened.load("state.REF") == Data("good".utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(".tmp-crashed").path))
    }

    @Test func integrityCheckDropsDamagedEntries() async throws {
        let store = InMemoryTokenStore()
        let storage = SecureStorage(store: store, check: .INTEGRITY_CHECK_ALL)
        try await storage.write(["a": 1], "state.REF")
        #expect(await storage.read([String: Int].self, "state.REF") == ["a": 1])
        // Flip the payload without fixing the checksum.
        var envelope = try JSONSerialization.jsonObject(with: try #require(try await store.load("state.REF"))) as! [String: Any]
        envelope["data"] = Data(#"{"a":2}"#.utf8).base64EncodedString()
        try await store.save(try JSONSerialization.data(withJSONObject: envelope), for: "state.REF")
        let unchecked = SecureStorage(store: store, check: .INTEGRITY_CHECK_NONE)
        #expect(await unchecked.read([String: Int].self, "state.REF") == ["a": 2])
        #expect(await storage.read([String: Int].self, "state.REF") == nil)
        #expect(try await store.load("state.REF") == nil)
    }

    @Test func garbageIsReadAsAbsent() async throws {
        let store = InMemoryTokenStore(["state.REF": Data("{not json".utf8)])
        let storage = SecureStorage(store: store, check: .INTEGRITY_CHECK_NONE)
        #expect(await storage.read([String: Int].self, "state.REF") == nil)
    }

    @Test func clearRemovesEverythingTheSDKWrote() async throws {
        let store = InMemoryTokenStore(["app.own": Data("keep".utf8)])
        try await SecureStorage(store: store, check: .INTEGRITY_CHECK_ALL).write("x", "device.id")
        try await SecureStorage(store: store, check: .INTEGRITY_CHECK_ALL).write("y", "state.REF")
        await SecureStorage(store: store, check: .INTEGRITY_CHECK_CLEAR).prepare()
        #expect(store.keys == ["app.own"])
    }
}
