import EntitleModel
import EntitleStorage

extension CallerAuthenticator {
    /// Whether the caller's software statement marks it as a network's backend calling REST API v2 for its devices
    /// (`entitle admin software-statement create --server-to-server`): the device's address is then the one its call
    /// names in `X-Forwarded-For`. Read from the catalog cache; a statement that cannot be read counts as not marked.
    package func isServerToServer(_ caller: CallerIdentity) async -> Bool {
        guard !caller.app.isEmpty, let statement = try? await clients.softwareStatement(id: caller.app) else { return false }
        return statement.serverToServer
    }
}
