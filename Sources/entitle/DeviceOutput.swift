import AccessEnabler
import ArgumentParser
import EntitleCore
import Foundation

/// How `entitle device` reports: text for people, or exactly one JSON object per command (`--json`), and the exit
/// status: 0 success, 2 not signed in, 3 denied, 130 interrupted, 1 any other error.
struct DeviceOutput: Sendable {
    /// Exit status when the device is not signed in.
    static let notSignedIn: Int32 = 2
    /// Exit status when the MVPD denied authorization.
    static let denied: Int32 = 3
    /// Exit status after Ctrl-C.
    static let interrupted: Int32 = 130

    /// Whether to print JSON.
    let json: Bool
    /// The service's base URL, for messages.
    var server = ""
    /// The wait for each answer, seconds, for messages.
    var timeout = EnvironmentDefaults.defaultRequestTimeout

    /// Prints a successful result: `fields` as JSON (with `"ok": true`) or `text`.
    func success(_ fields: [String: Any], text: @autoclosure () -> String) {
        if json {
            var object = fields
            object["ok"] = true
            write(Self.jsonLine(object), to: .standardOutput)
        } else {
            write(text() + "\n", to: .standardOutput)
        }
    }

    /// Prints a failure and returns the exit code to throw. "Not signed in" and denials are answers, printed on
    /// standard output; other errors go to standard error (as JSON on standard output with `--json`).
    func failure(_ error: any Error, command: String, extra: [String: Any] = [:]) -> ExitCode {
        let (kind, status, message, details, statusID) = Self.classify(error, server: server, timeout: timeout)
        if json {
            var object = extra
            object["ok"] = false
            object["error"] = kind
            object["message"] = message
            if let details { object["details"] = details }
            if let statusID { object["statusId"] = statusID }
            write(Self.jsonLine(object), to: .standardOutput)
        } else if status == Self.notSignedIn {
            write("Not signed in. Run `entitle device login` first.\n", to: .standardOutput)
        } else if status == Self.denied {
            write("Not authorized: \(details ?? message)\n", to: .standardOutput)
        } else if status == Self.interrupted {
            write("Cancelled.\n", to: .standardError)
        } else {
            write("entitle device \(command): \(message)\(details.map { " (\($0))" } ?? "")\n", to: .standardError)
        }
        return ExitCode(status)
    }

    /// Writes `text` unbuffered.
    func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }

    /// `30` for 30 seconds, `2.5` for two and a half.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The error kind, exit status, message, details and SDK status id of `error`.
    static func classify(
        _ error: any Error, server: String = "", timeout: Double = EnvironmentDefaults.defaultRequestTimeout
    ) -> (String, Int32, String, String?, String?) {
        if let error = error as? AccessEnablerError, error.code == .network, error.networkReason == .timedOut {
            return (
                error.code.rawValue, 1,
                "the Entitle service at \(server) did not answer within \(seconds(timeout)) s "
                    + "(pass --timeout or set ENTITLE_TIMEOUT to wait longer)", nil, error.statusID
            )
        }
        if let error = error as? AccessEnablerError, error.code == .network {
            return (
                error.code.rawValue, 1,
                "cannot reach the Entitle service at \(server) — is `entitle serve` running? "
                    + "(set ENTITLE_URL or pass --server)", error.networkReason?.rawValue, error.statusID
            )
        }
        if let error = error as? AccessEnablerError, DeviceRunner.isThrottled(error) {
            let wait = Int(DeviceRunner.wait(error))
            return (
                AccessEnablerError.Code.throttled.rawValue, 1, "the service is throttling this device (too many requests); try again in \(wait) s",
                nil, error.statusID
            )
        }
        if let error = error as? AccessEnablerError {
            let status: Int32
            switch error.code {
            case .notAuthenticated: status = notSignedIn
            case .notAuthorized: status = denied
            case .cancelled: status = interrupted
            default: status = 1
            }
            return (error.code.rawValue, status, error.message, error.details, error.statusID)
        }
        if let failure = error as? DeviceFailure { return ("invalid_argument", 1, failure.message, nil, nil) }
        return ("error", 1, "\(error)", nil, nil)
    }

    /// One line of JSON with sorted keys.
    static func jsonLine(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "{\"ok\":false,\"error\":\"encoding\"}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// A JSON value as a Foundation object for `JSONSerialization`.
    static func foundationValue(_ value: JSONValue) -> Any {
        switch value {
        case .string(let string): return string
        case .number(let number):
            if number.rounded() == number && abs(number) < 9e15 { return Int64(number) }
            return number
        case .bool(let bool): return bool
        case .array(let array): return array.map(foundationValue)
        case .object(let fields): return fields.mapValues(foundationValue)
        }
    }

    /// A JSON value as text.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): return string
        case .number(let number): return number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
        case .bool(let bool): return String(bool)
        case .array(let array): return array.map(text).joined(separator: ", ")
        case .object(let fields): return fields.sorted { $0.key < $1.key }.map { "\($0.key): \(text($0.value))" }.joined(separator: ", ")
        }
    }
}
