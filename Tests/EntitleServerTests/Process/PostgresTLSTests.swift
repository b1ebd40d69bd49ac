#if canImport(Glibc)
import Glibc
#endif
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Logging
import SQLKit
import Testing

/// TLS to PostgreSQL as the database URL's `sslmode` says (libpq's meanings), against throwaway servers of the test's
/// own: one without TLS, one with a self-signed certificate for localhost.
@Suite(.serialized) struct PostgresTLSTests {
    static let logger = Logger(label: "test")

    /// Opens the URL and runs a query; the engine is closed.
    static func connect(_ url: String) async throws {
        let engine = try await DatabaseEngine.open(databaseURL: url, dataDirectory: NSTemporaryDirectory() + "entitle-none-\(UUID())", logger: logger)
        do {
            try await engine.sql.raw("SELECT 1").run()
        } catch {
            try? await engine.close()
            throw error
        }
        try await engine.close()
    }

    /// The message of the error `url` fails with.
    static func failure(_ url: String) async -> String {
        do {
            try await connect(url)
            return "(connected)"
        } catch {
            return "\(error)"
        }
    }

    @Test func requireAgainstAServerWithoutTLSFailsClearly() async throws {
        guard let postgres = try ThrowawayPostgres() else { return }  // PostgreSQL not installed
        defer { postgres.remove() }
        try await Self.connect(postgres.url)  // prefer (the default) falls back to plain
        try await Self.connect(postgres.url + "?sslmode=disable")
        let message = await Self.failure(postgres.url + "?sslmode=require")
        #expect(message.contains("does not offer TLS") && message.contains("sslmode=require"), "\(message)")
        let unknown = await Self.failure(postgres.url + "?sslmode=sometimes")
        #expect(unknown.contains("Unknown sslmode=sometimes"), "\(unknown)")
        let missingCA = await Self.failure(postgres.url + "?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
        #expect(missingCA.contains("Cannot read sslrootcert"), "\(missingCA)")
    }

    @Test func aServerWithASelfSignedCertificate() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") else { return }
        let folder = NSTemporaryDirectory() + "entitle-pg-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ThrowawayPostgres.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost", "-keyout", folder + "/server.key", "-out", folder + "/server.crt",
            ])
        try ThrowawayPostgres.run(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=other", "-keyout", folder + "/other.key",
                "-out", folder + "/other.crt",
            ])
        chmod(folder + "/server.key", 0o600)
        if getuid() == 0 { try ThrowawayPostgres.run("/usr/bin/chown", ["-R", "postgres", folder]) }
        guard
            let postgres = try ThrowawayPostgres(
                serverOptions: "-c ssl=on -c ssl_cert_file=\(folder)/server.crt -c ssl_key_file=\(folder)/server.key")
        else { return }
        defer { postgres.remove() }

        // Issued for localhost (not for the address 127.0.0.1).
        let localhost = postgres.url.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        try await Self.connect(postgres.url + "?sslmode=require")
        try await Self.connect(postgres.url + "?sslmode=verify-ca&sslrootcert=\(folder)/server.crt")
        try await Self.connect(localhost + "?sslmode=verify-full&sslrootcert=\(folder)/server.crt")
        // The system's CAs did not sign it: verification fails, and says so.
        let unverified = await Self.failure(localhost + "?sslmode=verify-full")
        #expect(unverified.contains("TLS handshake with PostgreSQL"), "\(unverified)")
        // verify-full checks the name: 127.0.0.1 is not the name the certificate was issued for.
        let wrongHost = await Self.failure(postgres.url + "?sslmode=verify-full&sslrootcert=\(folder)/server.crt")
        #expect(wrongHost.contains("TLS handshake with PostgreSQL"), "\(wrongHost)")
        // require with sslrootcert checks the CA (as libpq): a CA that did not sign it is refused.
        let otherCA = await Self.failure(postgres.url + "?sslmode=require&sslrootcert=\(folder)/other.crt")
        #expect(otherCA.contains("TLS handshake with PostgreSQL"), "\(otherCA)")
    }
}
