import EntitleCore
import Foundation

/// The metadata flow: `getMetadata` and `getSelectedProvider`, answered from the local profile and decisions without
/// the network. It has no state machine and no pending replies: every call is answered before it returns.
final class MetadataCoordinator {
    /// Creates the flow.
    init() {}

    /// `getSelectedProvider` → `selectedProvider(mvpd)`: the MVPD selected in an authentication flow under way, else
    /// the MVPD the user is authenticated with, else nil.
    func getSelectedProvider(reply: EngineCommand.Reply<MVPD?>?, in engine: isolated EntitlementEngine) {
        let id = engine.authentication.selectedMVPD ?? engine.local.authenticated(now: engine.now())?.mvpd
        let mvpd = id.map { engine.mvpdModel($0) ?? MVPD(ID: $0, displayName: $0, logoURL: "") }
        engine.emit([.selectedProvider(mvpd: mvpd)])
        reply?(.success(mvpd))
    }

    /// `getMetadata` → `setMetadataStatus`: the authentication or a resource's authorization expiry, the device id
    /// (when the app allows it) or a user metadata value.
    func getMetadata(_ keys: [String: any Sendable], reply: EngineCommand.Reply<MetadataResult>?, in engine: isolated EntitlementEngine) {
        let opcode = EntitlementEngine.int(keys[METADATA_OPCODE_KEY]).map(Int32.init) ?? METADATA_INVALID
        let local = engine.local
        let authenticated = local.authenticated(now: engine.now())
        var result = MetadataResult(value: nil, encrypted: false)
        switch opcode {
        case METADATA_AUTHENTICATION:
            if let entry = authenticated?.entry { result.value = .string(String(entry.profile.notAfter)) }
        case METADATA_AUTHORIZATION:
            if authenticated != nil, let resource = keys[METADATA_RESOURCE_ID_KEY].flatMap(EntitlementEngine.string),
                let notAfter = local.authorizations[resource], notAfter > engine.nowMilliseconds
            {
                result.value = .string(String(notAfter))
            }
        case METADATA_DEVICE_ID:
            if engine.settings.deviceIDMetadata { result.value = .string(engine.deviceID) }
        case METADATA_USER_META:
            if let entry = authenticated?.entry, let name = keys[METADATA_USER_META_KEY].flatMap(EntitlementEngine.string),
                let attribute = entry.profile.attributes[name]
            {
                result = MetadataResult(value: attribute.value, encrypted: attribute.state == .encrypted)
            }
        default:
            break
        }
        let key =
            [METADATA_AUTHENTICATION, METADATA_AUTHORIZATION, METADATA_DEVICE_ID, METADATA_USER_META].contains(opcode)
            ? opcode : METADATA_INVALID
        engine.emit([.setMetadataStatus(metadata: result.value, encrypted: result.encrypted, key: key, arguments: keys)])
        reply?(.success(result))
    }
}
