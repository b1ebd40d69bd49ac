import AccessEnabler
import ArgumentParser
import EntitleCore
import Foundation

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
        output.timeout = options.timeout
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
