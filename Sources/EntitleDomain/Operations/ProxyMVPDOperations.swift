import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import SAML

/// Proxy MVPDs (issue 40): an operator marks an MVPD as a proxy and lets a software statement's clients push for it;
/// the proxy keeps its proxied MVPDs current through Adobe's Proxy MVPD Web Service
/// (`/control/v3/mvpd-proxies/{proxy}/mvpds`). Every push is one changes-log entry whose actor is the pushing client.
package struct ProxyMVPDOperations: Sendable, ClockReading {
    /// MVPDs, proxies and proxied MVPDs.
    package let catalog: CatalogStore
    /// Removal of proxied MVPDs, requestor lookups.
    package let onboarding: CatalogAdminStore
    /// The pushing clients.
    package let clients: ClientStore
    /// Access tokens.
    package let tokens: TokenIssuer
    /// The changes log.
    package let changes: ChangeRecorder
    package let clock: any ServiceClock

    /// Creates the value from each of its stored properties.
    package init(
        catalog: CatalogStore, onboarding: CatalogAdminStore, clients: ClientStore, tokens: TokenIssuer, changes: ChangeRecorder,
        clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.onboarding = onboarding
        self.clients = clients
        self.tokens = tokens
        self.changes = changes
        self.clock = clock
    }

    // MARK: Operator side

    /// Marks a SAML MVPD as a proxy (or changes its settings): `listed`, whether it is also an MVPD in its own right in
    /// its requestors' pickers; `allowedAddresses`, the CIDR ranges (or single addresses) pushes may come from (empty:
    /// any address).
    package func markProxy(id: String, listed: Bool, allowedAddresses: [String], actor: String) async throws {
        try OperatorReach.requireServiceWide("proxy MVPDs")
        guard let mvpd = try await catalog.mvpd(id: id) else {
            throw AdminError.unknown("MVPD", id, hint: "list them with `entitle admin mvpd list`")
        }
        guard mvpd.kind == .saml, mvpd.proxyMvpdId == nil else {
            throw AdminError("invalid_value", "only a SAML MVPD that is not itself proxied can be a proxy")
        }
        let ranges = try allowedAddresses.map { text in
            guard let range = IPAddressRange(text.contains("/") ? text : text + (text.contains(":") ? "/128" : "/32")) else {
                throw AdminError("invalid_value", "\(text) is not an IP address or CIDR range")
            }
            return range.description
        }
        let before = try await catalog.proxy(id: id)
        let after = ProxyMVPDRecord(mvpdId: id, listed: listed, allowedAddresses: ranges)
        try await catalog.setProxy(after, at: now)
        try await changes.record(
            actor: actor, action: before == nil ? "mvpd.proxy.add" : "mvpd.proxy.update", target: id, before: before, after: after)
    }

    /// Throws unless `id` is a proxy MVPD.
    package func requireProxy(_ id: String) async throws {
        guard try await catalog.proxy(id: id) != nil else {
            throw AdminError("not_a_proxy", "MVPD \(id) is not a proxy; mark it with `entitle admin mvpd add … --proxy`")
        }
    }

    /// Lets the clients of a software statement push for a proxy, and records it.
    package func allowSoftwareStatement(_ softwareID: String, proxy: String, actor: String) async throws {
        try OperatorReach.requireServiceWide("proxy MVPDs")
        guard try await catalog.proxy(id: proxy) != nil else {
            throw AdminError("not_a_proxy", "MVPD \(proxy) is not a proxy; mark it with `entitle admin mvpd add … --proxy`")
        }
        try await catalog.setProxySoftwareStatement(softwareID: softwareID, proxy: proxy)
        try await changes.record(actor: actor, action: "software-statement.proxy", target: softwareID, after: ["proxyMVPD": proxy])
    }

    // MARK: The web service

    /// Why a web-service call is refused: its HTTP status and a short text.
    package struct Refusal: Error, Equatable {
        package let status: Int
        package let message: String

        /// Creates the value from each of its stored properties.
        package init(_ status: Int, _ message: String) {
            self.status = status
            self.message = message
        }
    }

    /// The client of a web-service call for `proxy`: a valid DCR access token (401 otherwise), of a client of a
    /// software statement issued for this proxy (403: not a proxy, or an ordinary app's token), calling from one of the
    /// proxy's allowed addresses (401 otherwise, as Adobe answers).
    package func caller(authorization: String?, proxy: String, clientAddress: String?) async throws -> ClientRecord {
        let header = authorization ?? ""
        guard header.hasASCIIPrefixIgnoringCase("bearer ") else {
            throw Refusal(401, "The Authorization header with a Bearer access token is missing.")
        }
        let token = CallerAuthenticator.trimmedASCIIBlanks(header.utf8.dropFirst(7))
        guard let claims = await tokens.verify(accessToken: token) else { throw Refusal(401, "The access token is invalid or expired.") }
        guard let client = try await clients.activeClient(id: claims.sub) else {
            throw Refusal(401, "The client is revoked or no longer approved.")
        }
        guard let settings = try await catalog.proxy(id: proxy) else { throw Refusal(403, "\(proxy) is not a proxy MVPD.") }
        guard try await catalog.proxyOfSoftwareStatement(client.softwareId) == proxy else {
            throw Refusal(403, "This client may not manage the proxied MVPDs of \(proxy).")
        }
        if !settings.allowedAddresses.isEmpty {
            let ranges = settings.allowedAddresses.compactMap(IPAddressRange.init)
            guard let clientAddress, ranges.containsAddress(clientAddress) else {
                throw Refusal(401, "The request does not come from an address allowed for \(proxy).")
            }
        }
        return client
    }

    /// The proxied MVPDs of a proxy as Adobe's XML.
    package func listXML(proxy: String) async throws -> String {
        ProxiedMVPDList(entries: try await catalog.proxiedMVPDs(proxy: proxy).map(Self.entry)).xml()
    }

    private static func entry(_ record: ProxiedMVPDRecord) -> ProxiedMVPDList.Entry {
        .init(
            id: record.id, providerID: record.providerId, displayName: record.displayName, logoURL: record.logoURL,
            iframeHeight: record.iframeHeight, iframeWidth: record.iframeWidth, requestorIDs: record.requestorIds)
    }

    /// Replaces the proxied MVPDs of `proxy` with the pushed document (an empty list removes them all). Everything is
    /// checked before anything is written (400: schema, duplicate ids, unknown requestors, an id that is another
    /// MVPD's), so a refused push changes nothing. One changes-log entry names what was added, changed and removed.
    package func push(proxy: String, xml: String, client: ClientRecord) async throws {
        try await push(proxy: proxy, xml: xml, pushedBy: client.clientId, actor: "client:" + client.clientId)
    }

    /// ``push(proxy:xml:client:)`` by `pushedBy` (recorded with each proxied MVPD), logged as `actor`'s: the demo world
    /// pushes Demo Proxy's list this way.
    package func push(proxy: String, xml: String, pushedBy: String, actor: String) async throws {
        let list: ProxiedMVPDList
        do { list = try ProxiedMVPDList.parse(xml: xml) } catch let error as ProxiedMVPDList.SchemaError {
            throw Refusal(400, "The proxied MVPDs do not follow the schema: \(error.description)")
        }
        guard let proxyRecord = try await catalog.mvpd(id: proxy) else { throw Refusal(403, "\(proxy) is not a proxy MVPD.") }
        let current = try await catalog.proxiedMVPDs(proxy: proxy)
        let currentIDs = Set(current.map(\.id))
        for entry in list.entries {
            guard entry.id != proxy else { throw Refusal(400, "A proxied MVPD cannot have its proxy's id \(proxy).") }
            if !currentIDs.contains(entry.id), try await catalog.mvpd(id: entry.id) != nil {
                throw Refusal(400, "The id \(entry.id) is already another MVPD's.")
            }
            // The entity id (Issuer) names one MVPD only: not the proxy's, nor another MVPD's.
            if let holder = try await catalog.mvpd(entityID: entry.providerID ?? entry.id), holder.id != entry.id {
                throw Refusal(400, "The ProviderID \(entry.providerID ?? entry.id) is already another MVPD's entity id.")
            }
            for requestor in entry.requestorIDs ?? [] where try await onboarding.requestorForAdmin(id: requestor) == nil {
                throw Refusal(400, "The requestor \(requestor) does not exist.")
            }
        }
        let now = self.now
        var added: [String] = [], changed: [String] = [], unchanged: [String] = []
        for (position, entry) in list.entries.enumerated() {
            let record = ProxiedMVPDRecord(
                id: entry.id, proxyMvpdId: proxy, providerId: entry.providerID, displayName: entry.displayName, logoURL: entry.logoURL,
                iframeHeight: entry.iframeHeight, iframeWidth: entry.iframeWidth, requestorIds: entry.requestorIDs, pushedBy: pushedBy,
                pushedAt: now)
            if let old = current.first(where: { $0.id == entry.id }) {
                if Self.entry(old) == entry { unchanged.append(entry.id) } else { changed.append(entry.id) }
            } else {
                added.append(entry.id)
            }
            try await catalog.upsertProxiedMVPD(record, proxy: proxyRecord, position: position)
        }
        let removed = current.map(\.id).filter { id in !list.entries.contains { $0.id == id } }
        for id in removed {
            try await onboarding.deleteMVPD(id: id)
            try await catalog.deleteProxiedMVPD(id: id)
        }
        try await changes.record(
            actor: actor, action: "mvpd.proxied.push", target: proxy,
            before: ["proxiedMVPDs": current.map(\.id)],
            after: ["proxiedMVPDs": list.entries.map(\.id), "added": added, "changed": changed, "removed": removed])
    }
}
