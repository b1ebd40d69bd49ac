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
        let (kind, status, message, details, statusID) = Self.classify(error, server: server)
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

    /// The error kind, exit status, message, details and SDK status id of `error`.
    static func classify(_ error: any Error, server: String = "") -> (String, Int32, String, String?, String?) {
        if let error = error as? AccessEnablerError, error.code == .network {
            return (error.code.rawValue, 1, "cannot reach the Entitle service at \(server) — is `entitle serve` running? "
                        + "(set ENTITLE_URL or pass --server)", nil, error.statusID)
        }
        if let error = error as? AccessEnablerError, DeviceRunner.isThrottled(error) {
            let wait = Int(DeviceRunner.wait(error))
            return (AccessEnablerError.Code.throttled.rawValue, 1, "the service is throttling this device (too many requests); try again in \(wait) s",
                    nil, error.statusID)
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
        }
    }

    /// A JSON value as text.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): return string
        case .number(let number): return number.rounded() == number && abs(number) < 9e15 ? String(Int64(number)) : String(number)
        case .bool(let bool): return String(bool)
        case .array(let array): return array.map(text).joined(separator: ", ")
        }
    }
}

/// Runs a device command: builds the SDK from the options, runs `body`, and turns failures into output and exit codes.
struct DeviceRunner {
    /// The shared options.
    let options: DeviceOptions
    /// The command's name, for messages.
    let command: String

    /// How many times a throttled command is retried, and the longest wait between tries (seconds).
    static let throttleRetries = 3
    static let longestWait: Double = 30

    /// Runs `body` with a configured SDK. When the service throttles the device (HTTP 429), says
    /// "throttled, retrying in N s" on standard error, waits as the service asked (at most 30 s) and runs `body`
    /// again, up to three times.
    func run(_ body: (AccessEnabler, DeviceOutput) async throws -> Void) async throws {
        var output = DeviceOutput(json: options.json)
        output.server = options.serverBase
        var retries = 0
        while true {
            do {
                let enabler = try await options.makeEnabler()
                try await body(enabler, output)
                return
            } catch let exit as ExitCode {
                throw exit
            } catch let error as AccessEnablerError where Self.isThrottled(error) && retries < Self.throttleRetries {
                retries += 1
                let wait = Self.wait(error)
                output.write("throttled, retrying in \(Int(wait)) s\n", to: .standardError)
                try? await Task.sleep(for: .seconds(wait))
            } catch {
                throw output.failure(error, command: command)
            }
        }
    }

    /// Whether the service answered 429 (the SDK reports a throttled decision as an authorization error that carries
    /// the service's message).
    static func isThrottled(_ error: AccessEnablerError) -> Bool {
        let throttleMessage = EnhancedError.tooManyRequests.message
        return error.code == .throttled || error.httpStatus == 429 || error.enhancedError?.status == 429
            || error.details == throttleMessage || error.message == throttleMessage
    }

    /// The wait the service asked for, whole seconds, 1…30.
    static func wait(_ error: AccessEnablerError) -> Double {
        min(longestWait, max(1, (error.retryAfter ?? 1).rounded(.up)))
    }
}
