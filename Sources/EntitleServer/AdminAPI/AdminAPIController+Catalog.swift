import EntitleCore
import Foundation
import Hummingbird

/// Requestors, MVPDs and integrations.
extension AdminAPIController {
    func addCatalogRoutes(to group: RouterGroup<AdminContext>) {
        group.get("requestors") { _, _ in Self.json(try await service.requestors.views()) }
        group.post("requestors", use: addRequestor)
        group.get("requestors/:id") { _, context in Self.json(try await service.requestors.view(id: try context.parameters.require("id"))) }
        group.put("requestors/:id", use: updateRequestor)
        group.post("requestors/:id/disable") { _, context in try await setRequestor(context, disabled: true) }
        group.post("requestors/:id/enable") { _, context in try await setRequestor(context, disabled: false) }

        group.get("mvpds") { _, _ in Self.json(try await service.mvpds.views()) }
        group.post("mvpds", use: addMVPD)
        group.get("mvpds/:id") { _, context in Self.json(try await service.mvpds.view(id: try context.parameters.require("id"))) }
        group.patch("mvpds/:id", use: updateMVPD)
        group.post("mvpds/:id/disable") { _, context in try await setMVPD(context, disabled: true) }
        group.post("mvpds/:id/enable") { _, context in try await setMVPD(context, disabled: false) }
        group.delete("mvpds/:id") { _, context in
            try await service.mvpds.remove(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }

        group.get("integrations") { request, _ in
            let query = request.uri.queryParameters
            return Self.json(
                try await service.integrations.views(requestor: query["requestor"].map(String.init), mvpd: query["mvpd"].map(String.init)))
        }
        group.put("integrations/:requestor/:mvpd", use: setIntegration)
    }

    /// A requestor's settings in a request body.
    struct RequestorSettings: Decodable {
        var id: String?
        var name: String
        var domains: [String]?
        var maxResources: Int64?
        var programmerCertificatePEM: String?
        var defaultProfileTTLSeconds: Int64?
        var defaultAuthorizationTTLSeconds: Int64?
        var defaultPreflightMaxResources: Int64?

        func record(id: String) -> RequestorRecord {
            RequestorRecord(
                id: id, name: name, domains: domains ?? [], maxResources: maxResources ?? 5, metadataCertificatePem: programmerCertificatePEM,
                defaultProfileTtlSeconds: defaultProfileTTLSeconds, defaultAuthzTtlSeconds: defaultAuthorizationTTLSeconds,
                defaultPreflightMaxResources: defaultPreflightMaxResources)
        }
    }

    func addRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        guard let id = settings.id else { throw AdminAPIError.make(400, "invalid_request", "The JSON body is not as documented: missing id") }
        try await service.requestors.add(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestors.view(id: id), status: .created)
    }

    func updateRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        if let bodyID = settings.id, bodyID != id {
            throw AdminAPIError.make(400, "invalid_request", "The id in the body (\(bodyID)) is not the one in the path (\(id)).")
        }
        try await service.requestors.update(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestors.view(id: id))
    }

    func setRequestor(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await service.requestors.setDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestors.view(id: id))
    }

    /// A new MVPD in a request body: SAML (`samlMetadata`) or OAuth 2.0 (`oauth2`).
    struct NewMVPD: Decodable {
        var id: String
        var name: String
        var samlMetadata: String?
        var oauth2: OAuth2MVPDFields?
        var logoURL: String?
        var requestors: [String]?
        var authorizationURL: String?
        var authorizationKey: String?
        var authorizationProtocol: String?
        var xacmlBinding: String?
        var signAuthorizationQueries: Bool?
        var preflightMaxResources: Int64?
        var preflightMode: String?
        var lineupAttribute: String?
        var authorizeAll: Bool?
        var allowRSASHA1: Bool?
        var encryptedAttributes: [String]?
        var attributeMapping: [String: [String]]?
        var settings: MVPDUpdate?
    }

    func addMVPD(_ request: Request, context: AdminContext) async throws -> Response {
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
            var kind = try await service.repository.catalog.authorizationProtocol(mvpd: body.id)
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
        switch (body.samlMetadata, body.oauth2) {
        case (let xml?, nil):
            try await service.mvpds.importSAML(id: body.id, metadataXML: xml, options: options, requestors: body.requestors ?? [], actor: actor)
        case (nil, let fields?):
            guard body.allowRSASHA1 != true else { throw AdminAPIError.make(400, "invalid_value", "allowRSASHA1 is for SAML MVPDs") }
            let settings = try await service.oauth2MVPDs.settings(from: fields)
            try await service.oauth2MVPDs.save(id: body.id, options: options, oauth2: settings, requestors: body.requestors ?? [], actor: actor)
        default:
            throw AdminAPIError.make(
                400, "invalid_request", "Give samlMetadata (a SAML 2.0 MVPD) or oauth2 (an OAuth 2.0 MVPD), exactly one of them.")
        }
        if let limit = body.preflightMaxResources {
            for requestor in body.requestors ?? [] {
                try await service.integrations.setPreflight(requestor: requestor, mvpd: body.id, maxResources: limit, actor: actor)
            }
        }
        if let preflightMode {
            for requestor in body.requestors ?? [] {
                try await service.integrations.setPreflightMode(
                    requestor: requestor, mvpd: body.id, preflightMode, attribute: body.lineupAttribute, actor: actor)
            }
        }
        if let settings = body.settings, settings != MVPDUpdate() { try await service.mvpds.update(id: body.id, settings, actor: actor) }
        return Self.json(try await service.mvpds.view(id: body.id), status: .created)
    }

    func updateMVPD(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let update = try await Self.decode(MVPDUpdate.self, request, context: context)
        try await service.mvpds.update(id: id, update, actor: context.operatorIdentity.actor)
        return Self.json(try await service.mvpds.view(id: id))
    }

    func setMVPD(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await service.mvpds.setDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await service.mvpds.view(id: id))
    }

    /// An integration's state and settings; absent fields stay as they are.
    struct IntegrationState: Decodable {
        var enabled: Bool?
        var displayName: String?
        var logoURL: String?
        var profileTTLSeconds: Int64?
        var preflightMaxResources: Int64?
        var preflightMode: String?
        var lineupAttribute: String?
    }

    /// The preflight mode of a request body (`lineup` or `mvpd`); nil when absent. A lineup attribute needs `lineup`.
    static func preflightMode(_ name: String?, lineupAttribute: String?) throws -> PreflightMode? {
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

    func setIntegration(_ request: Request, context: AdminContext) async throws -> Response {
        let (requestor, mvpd) = (try context.parameters.require("requestor"), try context.parameters.require("mvpd"))
        let state = try await Self.decode(IntegrationState.self, request, context: context)
        let preflightMode = try Self.preflightMode(state.preflightMode, lineupAttribute: state.lineupAttribute)
        if state.enabled == nil && state.displayName == nil && state.logoURL == nil && state.profileTTLSeconds == nil
            && state.preflightMaxResources == nil && preflightMode == nil
        {
            throw AdminAPIError.make(
                400, "invalid_request", "Give enabled, displayName, logoURL, profileTTLSeconds, preflightMaxResources or preflightMode.")
        }
        let actor = context.operatorIdentity.actor
        if let enabled = state.enabled { try await service.integrations.setEnabled(requestor: requestor, mvpd: mvpd, enabled: enabled, actor: actor) }
        if state.displayName != nil || state.logoURL != nil || state.profileTTLSeconds != nil {
            try await service.integrations.setSettings(
                requestor: requestor, mvpd: mvpd, displayName: state.displayName, logoURL: state.logoURL,
                profileTTLSeconds: state.profileTTLSeconds, actor: actor)
        }
        if let limit = state.preflightMaxResources {
            try await service.integrations.setPreflight(requestor: requestor, mvpd: mvpd, maxResources: limit, actor: actor)
        }
        if let preflightMode {
            try await service.integrations.setPreflightMode(
                requestor: requestor, mvpd: mvpd, preflightMode, attribute: state.lineupAttribute, actor: actor)
        }
        return Self.json(try await service.integrations.views(requestor: requestor, mvpd: mvpd).first)
    }
}
