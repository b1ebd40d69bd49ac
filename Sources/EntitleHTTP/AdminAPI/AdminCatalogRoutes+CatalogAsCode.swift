import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The catalog as code: `GET /admin/api/catalog` (the export, JSON, or YAML with `Accept: application/yaml`) and
/// `POST /admin/api/catalog/apply?dryRun=…&prune=…` (a YAML or JSON document; the plan in JSON), the same operations as
/// `entitle admin catalog export|apply`.
extension AdminCatalogRoutes {
    package func addCatalogAsCodeRoutes(to group: RouterGroup<AdminContext>) {
        group.get("catalog", use: exportCatalog)
        group.post("catalog/apply", use: applyCatalog)
    }

    /// The whole catalog; secrets as references to files (never their values).
    package func exportCatalog(_ request: Request, context: AdminContext) async throws -> Response {
        let document = try await catalogAsCode.export()
        guard Self.wantsYAML(request.headers[.accept]) else { return Self.json(document) }
        return Response(
            status: .ok, headers: [.contentType: CatalogYAML.mediaType + "; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: try CatalogYAML.encode(document))))
    }

    /// Plans and applies the document in the body; a secret is `{file: …}` (the service keeps its value) or `{value: …}`.
    package func applyCatalog(_ request: Request, context: AdminContext) async throws -> Response {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let source = "the request body"
        let data = try CatalogYAML.json(from: String(decoding: Data(buffer: body), as: UTF8.self), source: source)
        let document = try CatalogDocument.read(json: data, source: source)
        let query = request.uri.queryParameters
        let plan = try await catalogAsCode.apply(
            document, source: source, dryRun: Self.flag(query["dryRun"]), prune: Self.flag(query["prune"]), actor: context.operatorIdentity.actor)
        return Self.json(plan)
    }

    /// Whether an `Accept` header asks for YAML.
    static func wantsYAML(_ accept: String?) -> Bool {
        guard let accept = accept?.lowercased() else { return false }
        return accept.contains("yaml")
    }

    /// A query flag: `true`, `1` or `yes`.
    static func flag(_ value: Substring?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["true", "1", "yes"].contains(value)
    }
}
