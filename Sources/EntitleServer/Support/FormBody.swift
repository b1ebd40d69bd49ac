import EntitleCore
import Foundation
import Hummingbird

/// Reading request bodies and parameters.
enum FormBody {
    /// Parses `application/x-www-form-urlencoded` text; the last value of a repeated key wins.
    static func parse(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let key = decode(parts[0]) else { continue }
            result[key] = parts.count > 1 ? decode(parts[1]) ?? "" : ""
        }
        return result
    }

    private static func decode(_ part: Substring) -> String? {
        String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// Encodes a form.
    static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Percent-encodes a query or form value.
    static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// Collects the body as UTF-8 text, refusing bodies over `limit` bytes.
    static func text(of request: Request, context: some RequestContext, limit: Int = 64 * 1024) async throws -> String {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return String(buffer: buffer)
        } catch {
            throw APIError(.payloadTooLarge)
        }
    }

    /// The form fields of a request body (any content type is read as a form).
    static func fields(of request: Request, context: some RequestContext) async throws -> [String: String] {
        parse(try await text(of: request, context: context))
    }

    /// The query parameters of a request.
    static func query(of request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { result[String(key)] = String(value) }
        return result
    }
}
