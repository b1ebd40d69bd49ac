import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import NIOFoundationCompat

/// Software statements, clients, operators and the changes log.
extension AdminAPIController {
    package func addApplicationRoutes(to group: RouterGroup<AdminContext>) {
        group.get("software-statements") { request, _ in
            let requestor = request.uri.queryParameters["requestor"].map(String.init)
            return Self.json(try await service.applications.softwareStatements(requestor: requestor).map(SoftwareStatementView.init))
        }
        group.post("software-statements", use: issueSoftwareStatement)
        group.post("software-statements/:id/revoke") { _, context in
            try await service.applications.revokeSoftwareStatement(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
        group.get("clients") { request, _ in
            let query = request.uri.queryParameters
            let limit = query["limit"].flatMap { Int($0) }.map { min(max($0, 1), 1000) } ?? 100
            let clients = try await service.applications.registeredClients(softwareID: query["softwareID"].map(String.init), limit: limit)
            return Self.json(clients.map(ClientView.init))
        }
        group.post("clients/:id/revoke") { _, context in
            try await service.applications.revokeClient(id: try context.parameters.require("id"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
        group.get("operators") { _, _ in Self.json(try await service.operatorChanges.views()) }
        group.get("changes") { request, _ in
            var since: Int64 = 0
            if let text = request.uri.queryParameters["since"] {
                guard let date = try? Date(String(text), strategy: .iso8601) else {
                    throw AdminAPIError.make(400, "invalid_value", "since: use an ISO 8601 time such as 2026-11-24T00:00:00Z")
                }
                since = Int64((date.timeIntervalSince1970 * 1000).rounded())
            }
            var limit: Int?
            if let text = request.uri.queryParameters["limit"] {
                guard let value = Int(text), (1...100_000).contains(value) else {
                    throw AdminAPIError.make(400, "invalid_value", "limit: a number of changes, 1 to 100000")
                }
                limit = value
            }
            let order = request.uri.queryParameters["order"].map(String.init) ?? "oldest-first"
            guard order == "oldest-first" || order == "newest-first" else {
                throw AdminAPIError.make(400, "invalid_value", "order: oldest-first or newest-first")
            }
            let newestFirst = order == "newest-first"
            return ChangesDocument.response(try await service.changes.recorded(since: since, limit: limit, newestFirst: newestFirst))
        }
    }

    package struct NewSoftwareStatement: Decodable {
        /// The requestor (absent for a proxy's web-service client, `proxyMVPD`: its statement belongs to no requestor).
        package var requestor: String?
        package var name: String
        package var redirectURIs: [String]?
        /// For a network's backend calling REST API v2 for its devices (docs/web-and-server-apps.md); default false.
        package var serverToServer: Bool?
        /// For a proxy MVPD's web-service client: the proxy whose proxied MVPDs its clients may read and push.
        package var proxyMVPD: String? = nil

        /// Creates the value from each of its stored properties.
        package init(requestor: String?, name: String, redirectURIs: [String]? = nil, serverToServer: Bool? = nil) {
            self.requestor = requestor
            self.name = name
            self.redirectURIs = redirectURIs
            self.serverToServer = serverToServer
        }
    }

    package struct IssuedSoftwareStatement: Encodable {
        package var softwareID: String
        package var softwareStatement: String

        /// Creates the value from each of its stored properties.
        package init(softwareID: String, softwareStatement: String) {
            self.softwareID = softwareID
            self.softwareStatement = softwareStatement
        }
    }

    package func issueSoftwareStatement(_ request: Request, context: AdminContext) async throws -> Response {
        let body = try await Self.decode(NewSoftwareStatement.self, request, context: context)
        guard let requestor = body.requestor else {
            guard let proxy = body.proxyMVPD, body.serverToServer != true else {
                throw AdminAPIError.make(400, "invalid_request", "Give requestor (or proxyMVPD, for a proxy MVPD's web-service client).")
            }
            let issued = try await service.proxyMVPDs.issueSoftwareStatement(
                proxy: proxy, name: body.name, redirectURIs: body.redirectURIs ?? [], actor: context.operatorIdentity.actor)
            return Self.json(IssuedSoftwareStatement(softwareID: issued.id, softwareStatement: issued.jwt), status: .created)
        }
        if let proxy = body.proxyMVPD { try await service.proxyMVPDs.requireProxy(proxy) }
        let issued = try await service.applications.issueSoftwareStatement(
            requestor: requestor, name: body.name, redirectURIs: body.redirectURIs ?? [], serverToServer: body.serverToServer ?? false,
            actor: context.operatorIdentity.actor)
        if let proxy = body.proxyMVPD {
            try await service.proxyMVPDs.allowSoftwareStatement(issued.id, proxy: proxy, actor: context.operatorIdentity.actor)
        }
        return Self.json(IssuedSoftwareStatement(softwareID: issued.id, softwareStatement: issued.jwt), status: .created)
    }
}

/// The changes log as the admin API shows it: each entry with the values before and after as JSON, not as text.
package enum ChangesDocument {
    package static func response(_ changes: [ChangeRecord]) -> Response {
        let entries: [[String: Any]] = changes.map { change in
            var entry: [String: Any] = [
                "id": change.id, "actor": change.actor, "action": change.action, "target": change.target,
                "at": Date(timeIntervalSince1970: Double(change.at) / 1000).ISO8601Format(),
            ]
            entry["before"] = change.valueBefore.flatMap(json) ?? NSNull()
            entry["after"] = change.valueAfter.flatMap(json) ?? NSNull()
            entry["description"] = change.description ?? NSNull()
            return entry
        }
        let data = (try? JSONSerialization.data(withJSONObject: entries, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    private static func json(_ text: String) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }
}
