import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import NIOFoundationCompat

/// The reports (Adobe ESM's figures): `GET /admin/api/v1/reports{/dimension}*` with `start`, `end`, `granularity`,
/// filters and `format`, for every role. Dimensions are path segments in the order of the breakdown.
extension AdminAPIController {
    package func addReportRoutes(to group: RouterGroup<AdminContext>) {
        let names = ["dimension1", "dimension2", "dimension3", "dimension4"]
        for depth in 0...names.count {
            let path = (["v1", "reports"] + names.prefix(depth).map { ":" + $0 }).joined(separator: "/")
            group.get(RouterPath(path)) { request, context in
                let segments = try names.prefix(depth).map { try context.parameters.require($0) }
                return try await report(request, segments: segments)
            }
        }
    }

    package func report(_ request: Request, segments: [String]) async throws -> Response {
        // A parameter given twice: the last one counts (a page may append its own granularity to a query).
        var parameters: [String: String] = [:]
        for (name, value) in request.uri.queryParameters { parameters[String(name)] = String(value) }
        let asked: ReportRequest
        do {
            asked = try ReportRequest(
                dimensions: segments, parameters: parameters, accept: request.headers[.accept], now: service.clock.nowMilliseconds())
        } catch {
            throw AdminAPIError.make(400, error.code, error.message)
        }
        let document = ReportDocument(query: asked.query, rows: try await service.reports.report(asked.query))
        guard asked.csv else {
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(data: document.json)))
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8; header=present", .cacheControl: "no-store",
                .contentDisposition: "attachment; filename=\"\(document.fileName)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: document.csv)))
    }
}
