import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The admin API's catalog: requestors, MVPDs and integrations (`entitle admin requestor|mvpd|integration`), and the
/// catalog as code (`AdminCatalogRoutes+CatalogAsCode.swift`). The same operations as the CLI and the console, with the
/// same changes-log entries.
package struct AdminCatalogRoutes: AdminAPIRoutes {
    package let requestors: RequestorOperations
    package let mvpds: MVPDOperations
    package let oauth2MVPDs: OAuth2MVPDOperations
    package let integrations: IntegrationOperations
    package let proxyMVPDs: ProxyMVPDOperations
    package let catalogAsCode: CatalogOperations

    /// Creates the value from each of its stored properties.
    package init(
        requestors: RequestorOperations, mvpds: MVPDOperations, oauth2MVPDs: OAuth2MVPDOperations, integrations: IntegrationOperations,
        proxyMVPDs: ProxyMVPDOperations, catalogAsCode: CatalogOperations
    ) {
        self.requestors = requestors
        self.mvpds = mvpds
        self.oauth2MVPDs = oauth2MVPDs
        self.integrations = integrations
        self.proxyMVPDs = proxyMVPDs
        self.catalogAsCode = catalogAsCode
    }

    /// Adds the routes of requestors, MVPDs, integrations and the catalog as code to `group` (`/admin/api`, signed in).
    package func addRoutes(to group: RouterGroup<AdminContext>) {
        group.get("requestors") { _, _ in Self.json(try await requestors.views()) }
        group.post("requestors", use: addRequestor)
        group.get("requestors/:id") { _, context in Self.json(try await requestors.view(id: try context.parameters.require("id"))) }
        group.put("requestors/:id", use: updateRequestor)
        group.post("requestors/:id/disable") { _, context in try await setRequestor(context, disabled: true) }
        group.post("requestors/:id/enable") { _, context in try await setRequestor(context, disabled: false) }

        group.get("mvpds") { _, _ in Self.json(try await mvpds.views()) }
        group.post("mvpds", use: addMVPD)
        group.get("mvpds/:id") { _, context in Self.json(try await mvpds.view(id: try context.parameters.require("id"))) }
        group.patch("mvpds/:id", use: updateMVPD)
        group.post("mvpds/:id/disable") { _, context in try await setMVPD(context, disabled: true) }
        group.post("mvpds/:id/enable") { _, context in try await setMVPD(context, disabled: false) }
        group.delete("mvpds/:id") { _, context in
            try await mvpds.remove(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }

        group.get("integrations") { request, _ in
            let query = request.uri.queryParameters
            return Self.json(
                try await integrations.views(requestor: query["requestor"].map(String.init), mvpd: query["mvpd"].map(String.init)))
        }
        group.put("integrations/:requestor/:mvpd", use: setIntegration)
        addCatalogAsCodeRoutes(to: group)
    }

    /// A requestor's settings in a request body.
    package struct RequestorSettings: Decodable {
        package var id: String?
        package var name: String
        package var domains: [String]?
        package var maxResources: Int64?
        package var programmerCertificatePEM: String?
        package var defaultProfileTTLSeconds: Int64?
        package var defaultAuthorizationTTLSeconds: Int64?
        package var defaultPreflightMaxResources: Int64?

        package func record(id: String) -> RequestorRecord {
            RequestorRecord(
                id: id, name: name, domains: domains ?? [], maxResources: maxResources ?? 5, metadataCertificatePem: programmerCertificatePEM,
                defaultProfileTtlSeconds: defaultProfileTTLSeconds, defaultAuthzTtlSeconds: defaultAuthorizationTTLSeconds,
                defaultPreflightMaxResources: defaultPreflightMaxResources)
        }

        /// Creates the value from each of its stored properties.
        package init(
            id: String? = nil, name: String, domains: [String]? = nil, maxResources: Int64? = nil, programmerCertificatePEM: String? = nil,
            defaultProfileTTLSeconds: Int64? = nil, defaultAuthorizationTTLSeconds: Int64? = nil, defaultPreflightMaxResources: Int64? = nil
        ) {
            self.id = id
            self.name = name
            self.domains = domains
            self.maxResources = maxResources
            self.programmerCertificatePEM = programmerCertificatePEM
            self.defaultProfileTTLSeconds = defaultProfileTTLSeconds
            self.defaultAuthorizationTTLSeconds = defaultAuthorizationTTLSeconds
            self.defaultPreflightMaxResources = defaultPreflightMaxResources
        }
    }

    package func addRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        guard let id = settings.id else { throw AdminAPIError.make(400, "invalid_request", "The JSON body is not as documented: missing id") }
        try await requestors.add(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await requestors.view(id: id), status: .created)
    }

    package func updateRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        if let bodyID = settings.id, bodyID != id {
            throw AdminAPIError.make(400, "invalid_request", "The id in the body (\(bodyID)) is not the one in the path (\(id)).")
        }
        try await requestors.update(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await requestors.view(id: id))
    }

    package func setRequestor(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await requestors.setDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await requestors.view(id: id))
    }

    /// A new MVPD in a request body: SAML (`samlMetadata`) or OAuth 2.0 (`oauth2`).
    package struct NewMVPD: Decodable {
        package var id: String
        package var name: String
        package var samlMetadata: String?
        package var oauth2: OAuth2MVPDFields?
        package var logoURL: String?
        package var requestors: [String]?
        package var authorizationURL: String?
        package var authorizationKey: String?
        package var authorizationProtocol: String?
        package var xacmlBinding: String?
        package var signAuthorizationQueries: Bool?
        package var preflightMaxResources: Int64?
        package var preflightMode: String?
        package var lineupAttribute: String?
        package var authorizeAll: Bool?
        package var allowRSASHA1: Bool?
        package var encryptedAttributes: [String]?
        package var attributeMapping: [String: [String]]?
        package var settings: MVPDUpdate?
        /// A proxy MVPD (SAML only), also listed in its own right, and the addresses its pushes may come from.
        package var proxy: Bool? = nil
        package var proxyListed: Bool? = nil
        package var proxyAllowedAddresses: [String]? = nil

        /// Creates the value from each of its stored properties.
        package init(
            id: String, name: String, samlMetadata: String? = nil, oauth2: OAuth2MVPDFields? = nil, logoURL: String? = nil,
            requestors: [String]? = nil, authorizationURL: String? = nil, authorizationKey: String? = nil, authorizationProtocol: String? = nil,
            xacmlBinding: String? = nil, signAuthorizationQueries: Bool? = nil, preflightMaxResources: Int64? = nil, preflightMode: String? = nil,
            lineupAttribute: String? = nil, authorizeAll: Bool? = nil, allowRSASHA1: Bool? = nil, encryptedAttributes: [String]? = nil,
            attributeMapping: [String: [String]]? = nil, settings: MVPDUpdate? = nil
        ) {
            self.id = id
            self.name = name
            self.samlMetadata = samlMetadata
            self.oauth2 = oauth2
            self.logoURL = logoURL
            self.requestors = requestors
            self.authorizationURL = authorizationURL
            self.authorizationKey = authorizationKey
            self.authorizationProtocol = authorizationProtocol
            self.xacmlBinding = xacmlBinding
            self.signAuthorizationQueries = signAuthorizationQueries
            self.preflightMaxResources = preflightMaxResources
            self.preflightMode = preflightMode
            self.lineupAttribute = lineupAttribute
            self.authorizeAll = authorizeAll
            self.allowRSASHA1 = allowRSASHA1
            self.encryptedAttributes = encryptedAttributes
            self.attributeMapping = attributeMapping
            self.settings = settings
        }
    }

    package func addMVPD(_ request: Request, context: AdminContext) async throws -> Response {
        let body = try await Self.decode(NewMVPD.self, request, context: context)
        var options = MVPDOptions(
            displayName: body.name, logoURL: body.logoURL ?? "", authorizationURL: body.authorizationURL, authorizationKey: body.authorizationKey)
        options.authorizeAllAuthenticated = body.authorizeAll ?? false
        options.allowRSASHA1 = body.allowRSASHA1 ?? false
        options.encryptedAttributes = body.encryptedAttributes ?? []
        options.attributeMapping = body.attributeMapping ?? [:]
        if let name = body.authorizationProtocol {
            guard let kind = MVPDAuthorizationProtocol(rawValue: name) else {
                throw AdminAPIError.make(400, "invalid_value", "authorizationProtocol \(name): use entitle-json, xacml, rest or none")
            }
            options.authorizationProtocol = kind
        }
        if let name = body.xacmlBinding {
            guard let binding = XACMLBinding(rawValue: name) else {
                throw AdminAPIError.make(400, "invalid_value", "xacmlBinding \(name): use plain or soap")
            }
            options.xacmlBinding = binding
        }
        options.signAuthorizationQueries = body.signAuthorizationQueries
        if let limit = body.preflightMaxResources {
            guard (0...1000).contains(limit) else { throw AdminAPIError.make(400, "invalid_value", "preflightMaxResources is 0 to 1000") }
            guard !(body.requestors ?? []).isEmpty else {
                throw AdminAPIError.make(400, "invalid_value", "preflightMaxResources is set per integration: give requestors")
            }
            var kind = try await mvpds.authorizationProtocol(mvpd: body.id)
            if let chosen = options.authorizationProtocol { kind = chosen }
            guard limit == 0 || kind == .xacml || kind == .rest else {
                throw AdminAPIError.make(400, "invalid_value", "preflight in one call needs the xacml or rest authorization protocol")
            }
        }
        let preflightMode = try Self.preflightMode(body.preflightMode, lineupAttribute: body.lineupAttribute)
        if preflightMode != nil, (body.requestors ?? []).isEmpty {
            throw AdminAPIError.make(400, "invalid_value", "preflightMode is set per integration: give requestors")
        }
        let actor = context.operatorIdentity.actor
        if body.proxy != true && (body.proxyListed != nil || body.proxyAllowedAddresses != nil) {
            throw AdminAPIError.make(400, "invalid_value", "proxyListed and proxyAllowedAddresses need proxy: true")
        }
        if body.proxy == true && body.samlMetadata == nil { throw AdminAPIError.make(400, "invalid_value", "a proxy MVPD is a SAML MVPD") }
        switch (body.samlMetadata, body.oauth2) {
        case (let xml?, nil):
            try await mvpds.importSAML(id: body.id, metadataXML: xml, options: options, requestors: body.requestors ?? [], actor: actor)
            if body.proxy == true {
                try await proxyMVPDs.markProxy(
                    id: body.id, listed: body.proxyListed ?? false, allowedAddresses: body.proxyAllowedAddresses ?? [], actor: actor)
            }
        case (nil, let fields?):
            guard body.allowRSASHA1 != true else { throw AdminAPIError.make(400, "invalid_value", "allowRSASHA1 is for SAML MVPDs") }
            let settings = try await oauth2MVPDs.settings(from: fields)
            try await oauth2MVPDs.save(id: body.id, options: options, oauth2: settings, requestors: body.requestors ?? [], actor: actor)
        default:
            throw AdminAPIError.make(
                400, "invalid_request", "Give samlMetadata (a SAML 2.0 MVPD) or oauth2 (an OAuth 2.0 MVPD), exactly one of them.")
        }
        if let limit = body.preflightMaxResources {
            for requestor in body.requestors ?? [] {
                try await integrations.setPreflight(requestor: requestor, mvpd: body.id, maxResources: limit, actor: actor)
            }
        }
        if let preflightMode {
            for requestor in body.requestors ?? [] {
                try await integrations.setPreflightMode(
                    requestor: requestor, mvpd: body.id, preflightMode, attribute: body.lineupAttribute, actor: actor)
            }
        }
        if let settings = body.settings, settings != MVPDUpdate() { try await mvpds.update(id: body.id, settings, actor: actor) }
        return Self.json(try await mvpds.view(id: body.id), status: .created)
    }

    package func updateMVPD(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let update = try await Self.decode(MVPDUpdate.self, request, context: context)
        try await mvpds.update(id: id, update, actor: context.operatorIdentity.actor)
        return Self.json(try await mvpds.view(id: id))
    }

    package func setMVPD(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await mvpds.setDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await mvpds.view(id: id))
    }

    /// An integration's state and settings; absent fields stay as they are.
    package struct IntegrationState: Decodable {
        package var enabled: Bool?
        package var displayName: String?
        package var logoURL: String?
        package var profileTTLSeconds: Int64?
        package var preflightMaxResources: Int64?
        package var preflightMode: String?
        package var lineupAttribute: String?
        /// The lifetime of home-based sign-ins, seconds (0 removes it).
        package var hbaProfileTTLSeconds: Int64?
        /// The resources home-based sign-ins are denied, replacing the list.
        package var hbaDeniedResources: [String]?

        /// Creates the value from each of its stored properties.
        package init(
            enabled: Bool? = nil, displayName: String? = nil, logoURL: String? = nil, profileTTLSeconds: Int64? = nil,
            preflightMaxResources: Int64? = nil, preflightMode: String? = nil, lineupAttribute: String? = nil,
            hbaProfileTTLSeconds: Int64? = nil, hbaDeniedResources: [String]? = nil
        ) {
            self.hbaProfileTTLSeconds = hbaProfileTTLSeconds
            self.hbaDeniedResources = hbaDeniedResources
            self.enabled = enabled
            self.displayName = displayName
            self.logoURL = logoURL
            self.profileTTLSeconds = profileTTLSeconds
            self.preflightMaxResources = preflightMaxResources
            self.preflightMode = preflightMode
            self.lineupAttribute = lineupAttribute
        }
    }

    /// The preflight mode of a request body (`lineup` or `mvpd`); nil when absent. A lineup attribute needs `lineup`.
    package static func preflightMode(_ name: String?, lineupAttribute: String?) throws -> PreflightMode? {
        guard let name else {
            if lineupAttribute != nil { throw AdminAPIError.make(400, "invalid_value", "lineupAttribute needs preflightMode lineup") }
            return nil
        }
        guard let mode = PreflightMode(rawValue: name) else {
            throw AdminAPIError.make(400, "invalid_value", "preflightMode \(name.logEscaped): use lineup or mvpd")
        }
        if let lineupAttribute {
            guard mode == .lineup else { throw AdminAPIError.make(400, "invalid_value", "lineupAttribute needs preflightMode lineup") }
            try IntegrationOperations.checkLineupAttribute(lineupAttribute)
        }
        return mode
    }

    package func setIntegration(_ request: Request, context: AdminContext) async throws -> Response {
        let (requestor, mvpd) = (try context.parameters.require("requestor"), try context.parameters.require("mvpd"))
        let state = try await Self.decode(IntegrationState.self, request, context: context)
        let preflightMode = try Self.preflightMode(state.preflightMode, lineupAttribute: state.lineupAttribute)
        if state.enabled == nil && state.displayName == nil && state.logoURL == nil && state.profileTTLSeconds == nil
            && state.preflightMaxResources == nil && preflightMode == nil && state.hbaProfileTTLSeconds == nil && state.hbaDeniedResources == nil
        {
            throw AdminAPIError.make(
                400, "invalid_request",
                "Give enabled, displayName, logoURL, profileTTLSeconds, preflightMaxResources, preflightMode, hbaProfileTTLSeconds or hbaDeniedResources."
            )
        }
        let actor = context.operatorIdentity.actor
        if let enabled = state.enabled { try await integrations.setEnabled(requestor: requestor, mvpd: mvpd, enabled: enabled, actor: actor) }
        if state.displayName != nil || state.logoURL != nil || state.profileTTLSeconds != nil {
            try await integrations.setSettings(
                requestor: requestor, mvpd: mvpd, displayName: state.displayName, logoURL: state.logoURL,
                profileTTLSeconds: state.profileTTLSeconds, actor: actor)
        }
        if let limit = state.preflightMaxResources {
            try await integrations.setPreflight(requestor: requestor, mvpd: mvpd, maxResources: limit, actor: actor)
        }
        if let preflightMode {
            try await integrations.setPreflightMode(
                requestor: requestor, mvpd: mvpd, preflightMode, attribute: state.lineupAttribute, actor: actor)
        }
        if state.hbaProfileTTLSeconds != nil || state.hbaDeniedResources != nil {
            try await integrations.setHBAPolicy(
                requestor: requestor, mvpd: mvpd,
                .init(profileTTLSeconds: state.hbaProfileTTLSeconds, deniedResources: state.hbaDeniedResources), actor: actor)
        }
        return Self.json(try await integrations.views(requestor: requestor, mvpd: mvpd).first)
    }
}
