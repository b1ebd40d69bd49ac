import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird
import MultipartKit

/// The fields of a console form: `application/x-www-form-urlencoded`, or `multipart/form-data` when it uploads a file
/// (an MVPD's metadata). Each field is text; a file field holds the file's content.
package struct ConsoleForm: Sendable {
    /// Field values by name (the last one wins when a name repeats).
    package var fields: [String: String]

    /// The bodies read: forms with an uploaded metadata file can be large.
    package static let limit = 1024 * 1024

    /// A field's value trimmed, nil when absent or empty.
    package subscript(_ name: String) -> String? {
        guard let value = fields[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        return value
    }

    /// Whether a checkbox is checked.
    package func checked(_ name: String) -> Bool { self[name] != nil }

    /// Reads the form of a request; a body that is too large or not a form is a ``ConsoleFailure``.
    package static func read(_ request: Request) async throws -> ConsoleForm {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: limit) } catch  where FormBody.isTooLarge(error) {
            throw ConsoleFailure(status: .contentTooLarge, "The form is larger than \(limit / 1024) KiB.")
        }
        let contentType = request.headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("multipart/form-data") else {
            return ConsoleForm(fields: FormURLEncoding.parse(String(buffer: body)))
        }
        guard let boundary = parameter("boundary", of: contentType) else {
            throw ConsoleFailure(status: .badRequest, "The form has no multipart boundary.")
        }
        return try ConsoleForm(fields: multipartFields(body, boundary: boundary))
    }

    /// The parts of a `multipart/form-data` body by name, their bodies as UTF-8 text.
    package static func multipartFields(_ body: ByteBuffer, boundary: String) throws -> [String: String] {
        let parser = MultipartParser(boundary: boundary)
        var fields: [String: String] = [:]
        var name: String?
        var value = ByteBuffer()
        parser.onHeader = { field, headerValue in
            if field.lowercased() == "content-disposition" { name = parameter("name", of: headerValue) }
        }
        parser.onBody = { chunk in value.writeBuffer(&chunk) }
        parser.onPartComplete = {
            if let name { fields[name] = String(buffer: value) }
            (name, value) = (nil, ByteBuffer())
        }
        do { try parser.execute(body) } catch { throw ConsoleFailure(status: .badRequest, "The form's multipart body cannot be read.") }
        return fields
    }

    /// A parameter of a header value such as `form-data; name="file"` or `multipart/form-data; boundary=x`.
    package static func parameter(_ name: String, of header: String) -> String? {
        for piece in header.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            var value = pair[1]
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return value
        }
        return nil
    }

    /// Creates the value from each of its stored properties.
    package init(fields: [String: String]) {
        self.fields = fields
    }
}

/// A console request that cannot be done: shown to the operator on a page with this status and message.
package struct ConsoleFailure: Error, Sendable {
    package var status: HTTPResponse.Status
    package var message: String

    package init(status: HTTPResponse.Status, _ message: String) { (self.status, self.message) = (status, message) }
}
