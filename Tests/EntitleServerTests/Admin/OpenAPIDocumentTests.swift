import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The OpenAPI document (`Resources/openapi.json`, served at `/openapi.json`) against the real router and the wire types:
/// every route is documented, every documented operation is a route, and the schemas carry the Codable field names.
@Suite struct OpenAPIDocumentTests {
    /// The parsed document.
    static func document() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8))
        return try #require(object as? [String: Any])
    }

    /// `METHOD /path/{param}` for every operation of the document.
    static func documentedOperations(_ document: [String: Any]) throws -> Set<String> {
        let paths = try #require(document["paths"] as? [String: Any])
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var operations = Set<String>()
        for (path, item) in paths {
            let item = try #require(item as? [String: Any])
            for key in item.keys where methods.contains(key) { operations.insert("\(key.uppercased()) \(path)") }
        }
        return operations
    }

    /// `/api/v2/:sp/x` and `/api/v2/{sp}/x` both become `/api/v2/{sp}/x`.
    static func openAPIPath(_ routerPath: String) -> String {
        let path = routerPath.hasPrefix("/") ? routerPath : "/" + routerPath
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }.joined(separator: "/")
    }

    @Test func documentIsOpenAPI31WithResolvableReferences() throws {
        let document = try Self.document()
        let version = try #require(document["openapi"] as? String)
        #expect(version.hasPrefix("3.1."))
        let components = try #require(document["components"] as? [String: Any])
        let schemes = try #require(components["securitySchemes"] as? [String: Any])
        let bearer = try #require(schemes["bearer"] as? [String: Any])
        #expect(bearer["type"] as? String == "http")
        #expect(bearer["scheme"] as? String == "bearer")

        // Every "$ref" points at something that exists.
        var references: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let reference = object["$ref"] as? String { references.append(reference) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(document)
        #expect(references.count > 50)
        for reference in references {
            let parts = reference.split(separator: "/").map(String.init)
            #expect(parts.count == 4 && parts[0] == "#" && parts[1] == "components", "\(reference)")
            guard parts.count == 4, let group = components[parts[2]] as? [String: Any] else { continue }
            #expect(group[parts[3]] != nil, "unresolved \(reference)")
        }
    }

    @Test func everyPathParameterIsDeclared() throws {
        let document = try Self.document()
        let paths = try #require(document["paths"] as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let shared = try #require(components["parameters"] as? [String: Any])
        for (path, item) in paths {
            let item = try #require(item as? [String: Any])
            let templated = Set(path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) })
            for (method, operation) in item {
                let operation = try #require(operation as? [String: Any])
                let parameters = (operation["parameters"] as? [[String: Any]] ?? []).map { parameter -> [String: Any] in
                    guard let reference = parameter["$ref"] as? String else { return parameter }
                    return shared[String(reference.split(separator: "/").last ?? "")] as? [String: Any] ?? [:]
                }
                let declared = Set(parameters.filter { $0["in"] as? String == "path" }.compactMap { $0["name"] as? String })
                #expect(declared == templated, "\(method.uppercased()) \(path)")
                #expect(operation["responses"] is [String: Any], "\(method.uppercased()) \(path) has no responses")
                #expect(operation["operationId"] is String, "\(method.uppercased()) \(path) has no operationId")
            }
        }
    }

    @Test func routesAndDocumentMatchBothWaysAndTheDocumentIsServed() async throws {
        try await RouterService.run { host in
            let routes = Set(host.host.buildRouter().routes.map { "\($0.method.rawValue) \(Self.openAPIPath($0.path.description))" })
            #expect(routes.count >= 30)
            #expect(routes.contains("POST /api/v2/{sp}/decisions/authorize/{mvpd}"))
            #expect(routes.contains("GET /demo-mvpd/{mvpd}/saml/sso"))
            #expect(routes.contains("POST /demo-mvpd/{mvpd}/saml/sso"))
            let documented = try Self.documentedOperations(try Self.document())
            let undocumented = routes.subtracting(documented).sorted()
            let unserved = documented.subtracting(routes).sorted()
            #expect(undocumented.isEmpty, "routes missing from openapi.json: \(undocumented)")
            #expect(unserved.isEmpty, "documented operations that are not routes: \(unserved)")

            let response = try await host.transport.send(.init(method: .GET, url: host.baseURL + "/openapi.json"))
            #expect(response.status == 200)
            #expect(response.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            let served = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            #expect((served["openapi"] as? String)?.hasPrefix("3.1.") == true)
            #expect(try Self.documentedOperations(served) == documented)
        }
    }

    /// The JSON keys Swift writes for a value.
    static func keys(of value: some Encodable) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
        return Set(try #require(object as? [String: Any]).keys)
    }

    /// A schema's property names and required names.
    static func schema(_ name: String) throws -> (properties: Set<String>, required: Set<String>) {
        let components = try #require(try Self.document()["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        let schema = try #require(schemas[name] as? [String: Any], "no schema \(name)")
        let properties = try #require(schema["properties"] as? [String: Any])
        return (Set(properties.keys), Set(schema["required"] as? [String] ?? []))
    }

    /// Fully populated values (every optional set) and minimal values (every optional nil) of the wire types.
    static func samples() -> [(schema: String, full: any Encodable, minimal: any Encodable)] {
        let error = EnhancedError.invalidMVPD.with(details: "details")
        let token = MediaTokenInfo(notBefore: 1, notAfter: 2, issuedAt: 1, serializedToken: "dG9rZW4=")
        let mvpd = MVPDConfiguration(
            id: "DemoCable", displayName: "Demo Cable", logoUrl: "/logo.svg", boardingStatus: "SUPPORTED",
            platformMappingId: "demo", encryptedUserMetadata: ["zip"])
        let requestor = RequestorConfiguration(id: "REF", name: "Reference", domains: [.init(name: "example.com")], mvpds: [mvpd])
        let profile = Profile(
            notBefore: 1, notAfter: 2, issuer: "DemoCable", type: "regular",
            attributes: ["zip": ProfileAttribute(value: .string("x"), state: "enc")])
        let partner = PartnerAuthenticationRequest(request: "PHNhbWw+", attributesNames: ["userID"])
        return [
            ("PartnerAuthenticationRequest", partner, partner),
            (
                "ClientRegistrationRequest", ClientRegistrationRequest(softwareStatement: "jwt", redirectURI: "adobepass://ios.app"),
                ClientRegistrationRequest(softwareStatement: "jwt")
            ),
            (
                "ClientRegistration", ClientRegistration(clientID: "c", clientSecret: "s", redirectURIs: [], clientIDIssuedAt: 1),
                ClientRegistration(clientID: "c", clientSecret: "s", redirectURIs: [], clientIDIssuedAt: 1)
            ),
            (
                "AccessTokenResponse", AccessTokenResponse(id: "i", accessToken: "t", createdAt: 1, expiresIn: 2),
                AccessTokenResponse(id: "i", accessToken: "t", createdAt: 1, expiresIn: 2)
            ),
            ("OAuthError", OAuthErrorBody(error: "invalid_client", errorDescription: "d"), OAuthErrorBody(error: "invalid_client")),
            (
                "ConfigurationResponse", ConfigurationResponse(device: "TV", clientType: "native", os: "tvOS", requestor: requestor),
                ConfigurationResponse(device: "TV", clientType: "native", os: "tvOS", requestor: requestor)
            ),
            ("RequestorConfiguration", requestor, requestor),
            ("Domain", RequestorConfiguration.Domain(name: "example.com"), RequestorConfiguration.Domain(name: "example.com")),
            ("MVPDConfiguration", mvpd, MVPDConfiguration(id: "DemoCable", displayName: "Demo Cable", logoUrl: "/logo.svg")),
            (
                "SessionResponse",
                SessionResponse(
                    actionName: "resume", actionType: "direct", reasonType: "none", url: "/u", missingParameters: ["mvpd"],
                    existingParameters: ["a": "b"], code: "ABCD2345", sessionId: "s", mvpd: "m", serviceProvider: "REF",
                    notBefore: "1", notAfter: "2", authenticationRequest: partner),
                SessionResponse(actionName: "resume", actionType: "direct", reasonType: "none")
            ),
            ("ProfilesResponse", ProfilesResponse(profiles: ["DemoCable": profile]), ProfilesResponse(profiles: [:])),
            ("Profile", profile, profile),
            ("ProfileAttribute", ProfileAttribute(value: .number(1)), ProfileAttribute(value: .bool(true))),
            ("DecisionsRequest", DecisionsRequest(resources: ["news"]), DecisionsRequest(resources: ["news"])),
            ("DecisionsResponse", DecisionsResponse(decisions: []), DecisionsResponse(decisions: [])),
            (
                "Decision",
                Decision(
                    resource: "news", serviceProvider: "REF", mvpd: "DemoCable", source: "mvpd", authorized: true, token: token,
                    error: error, notBefore: 1, notAfter: 2),
                Decision(resource: "news", serviceProvider: "REF", mvpd: "DemoCable", source: "mvpd", authorized: false)
            ),
            ("MediaTokenInfo", token, MediaTokenInfo(notBefore: 1, notAfter: 2, serializedToken: "dG9rZW4=")),
            ("LogoutsResponse", LogoutsResponse(logouts: [:]), LogoutsResponse(logouts: [:])),
            (
                "LogoutAction", LogoutAction(actionName: "logout", actionType: "interactive", mvpd: "m", url: "/u"),
                LogoutAction(actionName: "complete", actionType: "none")
            ),
            ("EnhancedError", error, EnhancedError.invalidMVPD),
            (
                "DeviceInfo",
                DeviceInfo(
                    primaryHardwareType: "TV", model: "m", version: "v", manufacturer: "m", vendor: "v", osName: "tvOS", osFamily: "f",
                    osVersion: "1", browserName: "b", browserVersion: "1", userAgent: "u", displayWidth: 1, displayHeight: 1,
                    connectionType: "LAN", applicationId: "a"),
                DeviceInfo()
            ),
        ]
    }

    @Test func schemasUseTheCodableFieldNames() throws {
        for sample in Self.samples() {
            let schema = try Self.schema(sample.schema)
            #expect(try Self.keys(of: sample.full) == schema.properties, "\(sample.schema): properties")
            #expect(try Self.keys(of: sample.minimal) == schema.required, "\(sample.schema): required")
        }
    }

    @Test func pathConversionHandlesHummingbirdAndOpenAPIForms() {
        #expect(Self.openAPIPath("/api/v2/:sp/logout/:mvpd") == "/api/v2/{sp}/logout/{mvpd}")
        #expect(Self.openAPIPath("/api/v2/{sp}/logout/{mvpd}") == "/api/v2/{sp}/logout/{mvpd}")
        #expect(Self.openAPIPath("demo-mvpd/:mvpd/login") == "/demo-mvpd/{mvpd}/login")
    }
}
