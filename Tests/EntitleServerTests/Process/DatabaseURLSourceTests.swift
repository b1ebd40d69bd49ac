import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import SQLKit
import Testing

/// The PostgreSQL password need not be on the command line: `ENTITLE_DATABASE_URL`, `--database-url-file` and
/// `PGPASSWORD` supply it.
@Suite struct DatabaseURLSourceTests {
    func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "entitle-dburl-" + UUID().uuidString
        try DataDirectory.writePrivateFile(Data(text.utf8), to: path)
        return path
    }

    @Test func theURLComesFromTheOptionTheFileOrTheEnvironment() throws {
        #expect(try DatabaseURLSource().resolve() == nil)
        #expect(try DatabaseURLSource.from(option: nil, file: nil, environment: [:]).resolve() == nil)
        let environment = ["ENTITLE_DATABASE_URL": "postgres://env@db:5432/entitle"]
        #expect(try DatabaseURLSource.from(option: nil, file: nil, environment: environment).resolve() == "postgres://env@db:5432/entitle")
        #expect(try DatabaseURLSource.from(option: "postgres://opt@db/e", file: nil, environment: environment).resolve() == "postgres://opt@db/e")
        let file = try temporaryFile("postgres://file:s3cret@db:5432/entitle\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(try DatabaseURLSource.from(option: nil, file: file, environment: environment).resolve() == "postgres://file:s3cret@db:5432/entitle")
        #expect(throws: ConfigurationError.self) { try DatabaseURLSource.from(option: "postgres://x@y/z", file: file, environment: [:]).resolve() }
        #expect(throws: ConfigurationError.self) { try DatabaseURLSource.from(option: nil, file: file + ".missing", environment: [:]).resolve() }
    }

    @Test func aURLFileReadableByOthersIsNoticed() throws {
        let file = try temporaryFile("postgres://file:s3cret@db:5432/entitle\n")
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(DatabaseURLSource(file: file).fileReadableByOthers() == nil)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        #expect(DatabaseURLSource(file: file).fileReadableByOthers() == 0o644)
        #expect(DatabaseURLSource(file: nil).fileReadableByOthers() == nil)
    }

    @Test func pgPasswordFillsInAMissingPassword() throws {
        let password = "p@ss:w/rd%1"
        let source = DatabaseURLSource.from(
            option: nil, file: nil,
            environment: [
                "ENTITLE_DATABASE_URL": "postgres://entitle@db:5432/tve",
                "PGPASSWORD": password,
            ])
        let url = try #require(try source.resolve())
        // PostgresKit reads user and password through URLComponents, percent-decoded.
        #expect(URLComponents(string: url)?.password == password)
        #expect(URLComponents(string: url)?.user == "entitle")
        #expect(URLComponents(string: url)?.host == "db")
        // A password in the URL wins.
        let explicit = DatabaseURLSource.from(option: "postgres://entitle:given@db/tve", file: nil, environment: ["PGPASSWORD": "other"])
        #expect(try explicit.resolve() == "postgres://entitle:given@db/tve")
    }

    @Test func theServiceOpensPostgreSQLFromAURLFile() async throws {
        guard let database = try await ScratchDatabase.create() else { return }  // needs ENTITLE_TEST_DATABASE_URL
        let file = try temporaryFile(database.url)
        let directory = NSTemporaryDirectory() + "entitle-dburl-" + UUID().uuidString
        defer {
            try? FileManager.default.removeItem(atPath: file)
            try? FileManager.default.removeItem(atPath: directory)
        }
        var configuration = HostConfiguration()
        configuration.dataDirectory = directory
        configuration.demo = false
        configuration.databaseURLSource = .from(option: nil, file: file, environment: ["PGPASSWORD": "unused-with-trust"])
        let host = try await EntitleHost.prepare(configuration: configuration, logger: Logger(label: "test"))
        #expect(host.engine.kind == .postgres)
        await host.shutdown()
        try await database.drop()
    }
}
