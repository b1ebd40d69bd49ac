import Foundation

/// One way to name the service for every command. Precedence everywhere: the command-line option, then the
/// environment variable, then the built-in default.
///
/// - `ENTITLE_URL` — base URL of a running service (`entitle device --server`, `entitle verify` derives its
///   `--keys` URL from it as `$ENTITLE_URL/keys/media-token`); default `http://127.0.0.1:8080`.
/// - `ENTITLE_DATA_DIR` — the service's data directory (`entitle serve`, `entitle admin --data-dir`); default `.entitle`.
/// - `ENTITLE_TIMEOUT` — seconds `entitle device` waits for each answer of the service (`--timeout`); default 30.
enum EnvironmentDefaults {
    /// The built-in service URL.
    static let defaultServiceURL = "http://127.0.0.1:8080"
    /// The built-in data directory.
    static let defaultDataDirectory = ".entitle"

    /// `ENTITLE_URL`, without trailing slashes, or the built-in URL.
    static var serviceURL: String {
        var url = value("ENTITLE_URL") ?? defaultServiceURL
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// The built-in wait for an answer, seconds.
    static let defaultRequestTimeout: Double = 30

    /// `ENTITLE_TIMEOUT` when it is a number, or 30 seconds (a value that is not a positive number is left for
    /// `--timeout`'s check to refuse).
    static var requestTimeout: Double { value("ENTITLE_TIMEOUT").map { Double($0) ?? .nan } ?? defaultRequestTimeout }

    /// `ENTITLE_DATA_DIR`, or `.entitle`.
    static var dataDirectory: String { value("ENTITLE_DATA_DIR") ?? defaultDataDirectory }

    /// The media-token key bundle of the service at `ENTITLE_URL` (or the default URL).
    static var mediaTokenKeysURL: String { serviceURL + "/keys/media-token" }

    /// A non-empty environment variable.
    static func value(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}
