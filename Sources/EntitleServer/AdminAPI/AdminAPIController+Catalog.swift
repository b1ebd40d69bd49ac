import EntitleCore
import Foundation
import Hummingbird

/// Requestors, MVPDs and integrations.
extension AdminAPIController {
    func addCatalogRoutes(to group: RouterGroup<AdminContext>) {
        group.get("requestors") { _, _ in Self.json(try await service.requestorViews()) }
        group.post("requestors", use: addRequestor)
        group.get("requestors/:id") { _, context in Self.json(try await service.requestorView(id: try context.parameters.require("id"))) }
        group.put("requestors/:id", use: updateRequestor)
        group.post("requestors/:id/disable") { _, context in try await setRequestor(context, disabled: true) }
        group.post("requestors/:id/enable") { _, context in try await setRequestor(context, disabled: false) }

        group.get("mvpds") { _, _ in Self.json(try await service.mvpdViews()) }
        group.post("mvpds", use: addMVPD)
        group.get("mvpds/:id") { _, context in Self.json(try await service.mvpdView(id: try context.parameters.require("id"))) }
        group.patch("mvpds/:id", use: updateMVPD)
        group.post("mvpds/:id/disable") { _, context in try await setMVPD(context, disabled: true) }
        group.post("mvpds/:id/enable") { _, context in try await setMVPD(context, disabled: false) }
        group.delete("mvpds/:id") { _, context in
            try await service.removeMVPD(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }

        group.get("integrations") { request, _ in
            let query = request.uri.queryParameters
            return Self.json(try await service.integrationViews(requestor: query["requestor"].map(String.init), mvpd: query["mvpd"].map(String.init)))
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

        func record(id: String) -> RequestorRecord {
            RequestorRecord(id: id, name: name, domains: domains ?? [], maxResources: maxResources ?? 5, metadataCertificatePem: programmerCertificatePEM)
        }
    }

    func addRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        guard let id = settings.id else { throw AdminAPIError.make(400, "invalid_request", "The JSON body is not as documented: missing id") }
        try await service.addRequestor(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestorView(id: id), status: .created)
    }

    func updateRequestor(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let settings = try await Self.decode(RequestorSettings.self, request, context: context)
        if let bodyID = settings.id, bodyID != id {
            throw AdminAPIError.make(400, "invalid_request", "The id in the body (\(bodyID)) is not the one in the path (\(id)).")
        }
        try await service.updateRequestor(settings.record(id: id), actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestorView(id: id))
    }

    func setRequestor(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await service.setRequestorDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await service.requestorView(id: id))
    }

    /// A new SAML MVPD in a request body.
    struct NewMVPD: Decodable {
        var id: String
        var name: String
        var samlMetadata: String
        var logoURL: String?
        var requestors: [String]?
        var authorizationURL: String?
        var authorizationKey: String?
        var authorizationProtocol: String?
        var authorizeAll: Bool?
        var allowRSASHA1: Bool?
        var encryptedAttributes: [String]?
        var attributeMapping: [String: [String]]?
        var settings: MVPDUpdate?
    }

    func addMVPD(_ request: Request, context: AdminContext) async throws -> Response {
        let body = try await Self.decode(NewMVPD.self, request, context: context)
        var options = EntitleService.MVPDOptions(
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
        let actor = context.operatorIdentity.actor
        try await service.importSAMLMVPD(id: body.id, metadataXML: body.samlMetadata, options: options, requestors: body.requestors ?? [], actor: actor)
        if let settings = body.settings, settings != MVPDUpdate() { try await service.updateMVPD(id: body.id, settings, actor: actor) }
        return Self.json(try await service.mvpdView(id: body.id), status: .created)
    }

    func updateMVPD(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let update = try await Self.decode(MVPDUpdate.self, request, context: context)
        try await service.updateMVPD(id: id, update, actor: context.operatorIdentity.actor)
        return Self.json(try await service.mvpdView(id: id))
    }

    func setMVPD(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let id = try context.parameters.require("id")
        try await service.setMVPDDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
        return Self.json(try await service.mvpdView(id: id))
    }

    struct IntegrationState: Decodable { var enabled: Bool }

    func setIntegration(_ request: Request, context: AdminContext) async throws -> Response {
        let (requestor, mvpd) = (try context.parameters.require("requestor"), try context.parameters.require("mvpd"))
        let state = try await Self.decode(IntegrationState.self, request, context: context)
        try await service.setIntegration(requestor: requestor, mvpd: mvpd, enabled: state.enabled, actor: context.operatorIdentity.actor)
        return Self.json(try await service.integrationViews(requestor: requestor, mvpd: mvpd).first)
    }
}
