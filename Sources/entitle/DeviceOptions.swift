import AccessEnabler
import ArgumentParser
import EntitleCore
import Foundation

/// Options shared by every `entitle device` command.
struct DeviceOptions: ParsableArguments {
    @Option(help: "Base URL of the Entitle service (env: ENTITLE_URL).")
    var server = EnvironmentDefaults.serviceURL

    @Option(help: "Requestor (service provider) id.")
    var requestor = "REF"

    @Option(help: "Software statement (JWT) of the app; `entitle serve` writes the demo one here (in $ENTITLE_DATA_DIR when set).")
    var softwareStatement = EnvironmentDefaults.dataDirectory + "/demo/software-statement.jwt"

    @Option(
        help: "Where the device keeps its credentials, device id and sign-in (default: $XDG_CONFIG_HOME/entitle/device or ~/.config/entitle/device).")
    var stateDir: String?

    @Option(help: "Seconds to wait for each answer of the service (env: ENTITLE_TIMEOUT).")
    var timeout = EnvironmentDefaults.requestTimeout

    @Flag(help: "Print one JSON object per command.")
    var json = false

    mutating func validate() throws {
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout (or ENTITLE_TIMEOUT) must be a positive number of seconds.") }
    }

    /// The server URL without a trailing slash.
    var serverBase: String {
        var base = server
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The state directory: the option, or the user's configuration directory.
    func stateDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let stateDir { return URL(fileURLWithPath: stateDir, isDirectory: true) }
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        return base.appendingPathComponent("entitle/device", isDirectory: true)
    }

    /// Creates the SDK in second-screen mode on a file token store, and configures the requestor.
    func makeEnabler() async throws -> AccessEnabler {
        guard let url = URL(string: serverBase), url.scheme == "http" || url.scheme == "https" else {
            throw DeviceFailure(message: "--server must be an http(s) URL")
        }
        let statement: String
        do {
            statement = try String(contentsOfFile: softwareStatement, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw DeviceFailure(
                message: "cannot read the software statement at \(softwareStatement) (start `entitle serve` first or pass --software-statement)")
        }
        let store: FileTokenStore
        do {
            store = try FileTokenStore(directory: stateDirectory())
        } catch {
            throw DeviceFailure(message: "cannot use the state directory \(stateDirectory().path): \(error)")
        }
        var info = DeviceEnvironment.current(applicationID: "entitle-device")
        info.primaryHardwareType = "SetTopBox"
        let configuration = AccessEnabler.Configuration(
            transport: URLSessionTransport(timeout: timeout), tokenStore: store,
            callbackExecutor: DispatchQueueExecutor(queue: DispatchQueue(label: "entitle.device.callbacks")),
            secondScreen: true, activationURL: serverBase + "/activate", deviceInfo: info,
            userAgent: "entitle-device/1.0 " + DeviceEnvironment.userAgent)
        let enabler = AccessEnabler(softwareStatement: statement, serviceBaseURL: url, configuration: configuration)
        try await enabler.configure(requestorID: requestor)
        return enabler
    }
}

/// A failure of the device command that is not the SDK's (bad options, unreadable files): exit status 1.
struct DeviceFailure: Error, CustomStringConvertible {
    /// What went wrong.
    let message: String
    /// The message.
    var description: String { message }
}
