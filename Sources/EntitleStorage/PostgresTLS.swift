import EntitleModel
import Foundation
import NIOSSL
import PostgresKit

/// TLS to PostgreSQL from the database URL, with libpq's names and meanings:
///
/// | `sslmode` | TLS | the server's certificate |
/// |---|---|---|
/// | `disable` | never | — |
/// | `allow`, `prefer` (the default) | when the server offers it | not checked |
/// | `require` | always, else the connection fails | not checked; checked against `sslrootcert` when given (as libpq) |
/// | `verify-ca` | always | signed by `sslrootcert` (or the system's CAs) |
/// | `verify-full` | always | signed by `sslrootcert` (or the system's CAs) and issued for the URL's host |
///
/// `sslrootcert=FILE` names a PEM file of CA certificates.
package enum PostgresTLS {
    /// The modes accepted.
    package static let modes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// The `sslmode` of a URL (lowercased; `prefer` when absent).
    package static func mode(of url: String) -> String {
        let items = URLComponents(string: url)?.queryItems ?? []
        return items.last { ["sslmode", "tlsmode", "ssl", "tls"].contains($0.name.lowercased()) }?.value?.lowercased() ?? "prefer"
    }

    /// The TLS settings a URL asks for.
    package static func configuration(url: String) throws -> PostgresConnection.Configuration.TLS {
        let items = URLComponents(string: url)?.queryItems ?? []
        let rootCertificate = items.last { $0.name.lowercased() == "sslrootcert" }?.value.flatMap { $0.isEmpty ? nil : $0 }
        var tls = TLSConfiguration.makeClientConfiguration()
        if let rootCertificate {
            guard FileManager.default.isReadableFile(atPath: rootCertificate) else {
                throw ConfigurationError("Cannot read sslrootcert \(rootCertificate) (a PEM file of the CA certificates of the PostgreSQL server).")
            }
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(rootCertificate)) } catch {
                throw ConfigurationError("sslrootcert \(rootCertificate) holds no PEM certificate.")
            }
        }
        switch mode(of: url) {
        case "disable", "false":
            return .disable
        case "allow", "prefer", "true":
            tls.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: tls))
        case "require":
            tls.certificateVerification = rootCertificate == nil ? .none : .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        case "verify-ca":
            tls.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: tls))
        case "verify-full":
            tls.certificateVerification = .fullVerification
            return .require(try NIOSSLContext(configuration: tls))
        case let other:
            throw ConfigurationError("Unknown sslmode=\(other) in the database URL; use one of \(modes.joined(separator: ", ")).")
        }
    }

    /// A clear message for a connection failure caused by TLS, or nil for any other failure.
    package static func explain(_ error: any Error, url: String) -> ConfigurationError? {
        let host = URLComponents(string: url).map { "\($0.host ?? "?"):\($0.port ?? 5432)" } ?? "the server"
        let mode = mode(of: url)
        if let error = error as? PSQLError, error.code == .sslUnsupported {
            return ConfigurationError(
                "PostgreSQL at \(host) does not offer TLS, but the database URL says sslmode=\(mode): turn ssl on in the server "
                    + "(postgresql.conf: ssl = on, ssl_cert_file, ssl_key_file) or change sslmode (see docs/configuration.md).")
        }
        let reflected = String(reflecting: error)
        // NIOSSLError, NIOSSLExtraError (a certificate not issued for the host), BoringSSLError, also inside a PSQLError.
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError || reflected.contains("NIOSSL")
            || reflected.contains("BoringSSL")
        {
            return ConfigurationError(
                "the TLS handshake with PostgreSQL at \(host) failed (sslmode=\(mode)): \(reflected). Check sslrootcert and that "
                    + "the server's certificate is issued for \(host) (see docs/configuration.md).")
        }
        return nil
    }
}
