import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import TestLogCapture
import Testing

/// The data directory holds the private signing keys: every file in it is 0600 and every directory 0700, whatever the
/// mode of the directory it was created in; wider modes found at start are tightened and logged.
@Suite struct DataDirectoryModeTests {
    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func everyFileOfTheDataDirectoryIsOwnerOnly() async throws {
        let directory = NSTemporaryDirectory() + "entitle-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // An existing, world-readable directory, and a world-readable file left from an earlier version.
        try FileManager.default.createDirectory(
            atPath: directory + "/demo", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        _ = FileManager.default.createFile(
            atPath: directory + "/demo/old-note.txt", contents: Data("x".utf8),
            attributes: [.posixPermissions: 0o644])
        let capture = LogCapture()
        var configuration = HostConfiguration()
        configuration.dataDirectory = directory
        configuration.databaseURL = nil  // SQLite, whatever the test environment says
        let host = try await EntitleHost.prepare(configuration: configuration, logger: capture.logger())
        await host.shutdown()

        let files = [
            "entitle.sqlite", "demo/software-statement.jwt", "demo/programmer-key.pem", "demo-mvpd/idp-key.pem",
            "demo-mvpd/api-key", "demo/old-note.txt",
        ]
        for file in files { #expect(try mode(directory + "/" + file) == 0o600, "\(file)") }
        for folder in ["", "/demo", "/demo-mvpd"] { #expect(try mode(directory + folder) == 0o700, "\(folder)") }
        // Whatever else SQLite or the demo created (-wal, -shm) is owner-only too.
        let entries = FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []
        #expect(entries.count >= files.count + 2)
        for entry in entries { #expect(try mode(directory + "/" + entry) & 0o077 == 0, "\(entry)") }
        #expect(capture.all.contains { $0.contains("tightened data directory permissions") && $0.contains("old-note.txt") })
        #expect(capture.all.contains { $0.contains("tightened data directory permissions") && $0.contains("from=755") })
    }

    @Test func walAndSharedMemoryFilesAreOwnerOnlyAndAnExistingDatabaseIsTightened() async throws {
        let directory = NSTemporaryDirectory() + "entitle-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: directory + "/entitle.sqlite", contents: Data(), attributes: [.posixPermissions: 0o644])
        let capture = LogCapture()
        let engine = try await DatabaseEngine.open(databaseURL: nil, dataDirectory: directory, logger: capture.logger())
        try await engine.sql.raw("CREATE TABLE probe (x INTEGER)").run()
        try await engine.sql.raw("INSERT INTO probe VALUES (1)").run()
        // While the connection is open, SQLite holds its write-ahead log and shared-memory index.
        for file in ["entitle.sqlite", "entitle.sqlite-wal", "entitle.sqlite-shm"] {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file)")
            #expect(try mode(directory + "/" + file) == 0o600, "\(file)")
        }
        #expect(try mode(directory) == 0o700)
        try await engine.close()
        #expect(capture.all.contains { $0.contains("tightened data directory permissions") && $0.contains("entitle.sqlite") })
    }
}

extension DataDirectoryModeTests {
    /// A data directory pointed at a shared folder: Entitle's files are owner-only, the folder and others' files untouched.
    @Test func aSharedFolderKeepsItsOwnModeAndOtherFiles() async throws {
        let directory = NSTemporaryDirectory() + "entitle-modes-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("x".utf8), attributes: [.posixPermissions: 0o644])
        let engine = try await DatabaseEngine.open(databaseURL: nil, dataDirectory: directory, logger: LogCapture().logger())
        try await engine.sql.raw("CREATE TABLE probe (x INTEGER)").run()
        #expect(try mode(directory + "/entitle.sqlite") == 0o600)
        #expect(try mode(directory + "/entitle.sqlite-wal") == 0o600)
        try await engine.close()
        #expect(try mode(directory + "/notes.txt") == 0o644)
        #expect(try mode(directory) == 0o755)
    }

    /// A private file written into an existing shared folder (such as `/tmp`) leaves the folder's mode alone: an earlier
    /// version made `/tmp` itself 0700, which locked every other user (PostgreSQL's) out of it.
    @Test func aPrivateFileInAnExistingFolderLeavesTheFolderAlone() throws {
        let directory = NSTemporaryDirectory() + "entitle-shared-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = chmod(directory, 0o755)
        try DataDirectory.writePrivateFile(Data("secret".utf8), to: directory + "/key.pem")
        #expect(try mode(directory + "/key.pem") == 0o600)
        #expect(try mode(directory) == 0o755)
        try DataDirectory.writePrivateFile(Data("secret".utf8), to: directory + "/new/key.pem")
        #expect(try mode(directory + "/new") == 0o700)
    }
}
