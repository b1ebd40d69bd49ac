import EntitleModel
import EntitleStorage

/// A refused administrative change, sign-in or lookup: a stable code, a message for the operator, and the HTTP status
/// the admin API answers with (the CLI prints the message and exits 1).
package struct AdminError: Error, CustomStringConvertible, Sendable {
    /// Machine-readable code, such as `unknown_mvpd`.
    package var code: String
    /// What was refused and why.
    package var description: String
    /// HTTP status for the admin API.
    package var status: Int
    /// Seconds to wait (a throttled sign-in).
    package var retryAfter: Int?

    /// Creates an error; 400 unless said otherwise.
    package init(_ code: String, _ description: String, status: Int = 400, retryAfter: Int? = nil) {
        (self.code, self.description, self.status, self.retryAfter) = (code, description, status, retryAfter)
    }

    /// An unknown id (404): `unknown_software_statement` and "no software statement ID (hint)" for the kind
    /// "software statement".
    package static func unknown(_ kind: String, _ id: String, hint: String) -> AdminError {
        AdminError("unknown_" + kind.replacingOccurrences(of: " ", with: "_"), "no \(kind) \(id) (\(hint))", status: 404)
    }
}
