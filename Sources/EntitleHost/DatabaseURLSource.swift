import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Foundation

/// Where the PostgreSQL URL and its password come from, so that the password need not be on the command line (where
/// every local user sees it in `ps`): the `--database-url` option, the `ENTITLE_DATABASE_URL` environment variable or
/// a file (`--database-url-file`, one line), with the password from `PGPASSWORD` when the URL has none.
package struct DatabaseURLSource: Sendable, Equatable {
    /// `--database-url`, when given.
    package var option: String?
    /// `--database-url-file`, when given.
    package var file: String?
    /// The `ENTITLE_DATABASE_URL` environment variable.
    package var environmentURL: String?
    /// The `PGPASSWORD` environment variable.
    package var environmentPassword: String?

    /// Creates a source.
    package init(option: String? = nil, file: String? = nil, environmentURL: String? = nil, environmentPassword: String? = nil) {
        self.option = option
        self.file = file
        self.environmentURL = environmentURL
        self.environmentPassword = environmentPassword
    }

    /// A source reading `ENTITLE_DATABASE_URL` and `PGPASSWORD` from `environment`.
    package static func from(
        option: String?, file: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DatabaseURLSource {
        DatabaseURLSource(
            option: option, file: file, environmentURL: environment["ENTITLE_DATABASE_URL"],
            environmentPassword: environment["PGPASSWORD"])
    }

    /// The URL to use (nil for SQLite): the option, else the file, else the environment; `PGPASSWORD` fills in a
    /// missing password. Giving both the option and the file is an error.
    package func resolve() throws -> String? {
        let option = self.option.flatMap { $0.isEmpty ? nil : $0 }
        if option != nil, file != nil { throw ConfigurationError("Give --database-url or --database-url-file, not both.") }
        var url = option
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ConfigurationError("Cannot read the database URL file \(file).")
            }
            url = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard url?.isEmpty == false else { throw ConfigurationError("The database URL file \(file) is empty.") }
        }
        if url == nil, let environmentURL, !environmentURL.isEmpty { url = environmentURL }
        guard let url else { return nil }
        if let environmentPassword, !environmentPassword.isEmpty { return Self.addingPassword(environmentPassword, to: url) }
        return url
    }

    /// The permission bits of `--database-url-file` when others than its owner may read it (it may hold a password).
    package func fileReadableByOthers() -> Int? {
        guard let file, let attributes = try? FileManager.default.attributesOfItem(atPath: file),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue, mode & 0o077 != 0
        else { return nil }
        return mode & 0o777
    }

    /// `url` with `password` as its password, unless it already has one.
    static func addingPassword(_ password: String, to url: String) -> String {
        guard var components = URLComponents(string: url), components.password == nil || components.password?.isEmpty == true,
            components.user != nil
        else { return url }
        components.password = password
        return components.string ?? url
    }
}
