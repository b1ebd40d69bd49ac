import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// What an operator may change on a proxied MVPD, for every front end (`entitle admin mvpd update`, `PATCH
/// /admin/api/mvpds/{id}`, the console's MVPD page): its display name and logo, kept across its proxy's pushes until the
/// operator takes them back (an empty value: the pushed one again). Its SAML settings, authorization and flags are its
/// proxy's and a change to them is refused (the same value, as the console's form sends it back, is not a change). It is
/// switched off with `mvpd disable` or per requestor with `integration disable`, which pushes do not touch either; only
/// its proxy's push removes it.
extension MVPDOperations {
    /// Applies an update to the proxied MVPD `record` (of `proxy`) and records it with the operator as actor.
    func updateProxied(_ record: MVPDRecord, proxy: String, _ update: MVPDUpdate, metadataXML: String?, actor: String) async throws {
        let before = try await lookups.mvpdView(record)
        var proxyOwned: [String] = []
        func differs<T: Equatable>(_ name: String, _ wanted: T?, _ current: T) {
            if let wanted, wanted != current { proxyOwned.append(name) }
        }
        if metadataXML != nil || update.samlMetadataURL != nil { proxyOwned.append("SAML metadata") }
        differs("requiresSafariViewController", update.requiresSafariViewController, record.requiresSafariViewController)
        differs("enablePlatformServices", update.enablePlatformServices, record.enablePlatformServices)
        differs("boardingStatus", update.boardingStatus, record.boardingStatus ?? "")
        differs("displayInPlatformPicker", update.displayInPlatformPicker, record.displayInPlatformPicker)
        differs("profile TTL", update.profileTTLSeconds, record.profileTtlSeconds)
        differs("authorization URL", update.authorizationURL, record.authorizationUrl ?? "")
        if update.authorizationKey != nil { proxyOwned.append("authorization key") }
        differs("authorization protocol", update.authorizationProtocol?.rawValue, before.authorizationProtocol)
        differs("XACML binding", update.xacmlBinding?.rawValue, before.xacmlBinding)
        differs("signAuthorizationQueries", update.signAuthorizationQueries, before.signAuthorizationQueries)
        if update.oauth2 != nil { proxyOwned.append("OAuth 2.0 settings") }
        guard proxyOwned.isEmpty else {
            throw AdminError(
                "proxied_mvpd",
                "\(record.id) is a proxied MVPD of \(proxy): its \(proxyOwned.joined(separator: ", ")) are its proxy's. Change \(proxy) "
                    + "(`entitle admin mvpd update --id \(proxy)`), or one requestor's integration (`entitle admin integration set`); "
                    + "a proxied MVPD's own settings are its display name and logo")
        }
        let current = try await catalog.proxiedMVPDs(proxy: proxy).first { $0.id == record.id }
        var (name, logo) = (current?.operatorDisplayName, current?.operatorLogoURL)
        // A value as shown (the console's form sends every field back) changes nothing: the pushed one stays the pushed one.
        if let wanted = update.displayName, wanted != record.displayName {
            name = wanted.trimmingCharacters(in: .whitespaces).isEmpty ? nil : wanted
        }
        if let wanted = update.logoURL, wanted != record.logoUrl {
            guard wanted.isEmpty || URL(string: wanted)?.scheme.map({ ["https", "http"].contains($0) }) == true else {
                throw AdminError("invalid_value", "the logo URL must be an http(s) URL")
            }
            logo = wanted.isEmpty ? nil : wanted
        }
        try await catalog.setProxiedMVPDEdits(id: record.id, displayName: name, logoURL: logo)
        try await changes.record(
            actor: actor, action: "mvpd.update", target: record.id, before: before, after: try await lookups.mvpdView(id: record.id))
    }

    /// Removes the proxied MVPDs of a proxy that is being removed, each recorded.
    func removeProxiedMVPDs(of proxy: String, actor: String) async throws {
        for proxied in try await catalog.proxiedMVPDs(proxy: proxy) {
            let before = try await lookups.mvpdView(id: proxied.id)
            try await onboarding.deleteMVPD(id: proxied.id)
            try await changes.record(actor: actor, action: "mvpd.remove", target: proxied.id, before: before)
        }
    }
}
