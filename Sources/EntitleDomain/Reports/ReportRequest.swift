import EntitleModel
import EntitleStorage
import Foundation

/// A report request of the admin API read from its path segments and query parameters: the dimensions (path
/// segments after `reports`), `start`, `end`, `granularity`, the filters `requestor`, `mvpd`, `platform`, `app`, `resource`,
/// `client`, `sso`, `hba`, `reason`, `profile`, and
/// `format` (or `Accept: text/csv`). Every refusal is a ``ReportRequestError`` naming the parameter.
package struct ReportRequest: Sendable, Equatable {
    /// What to read.
    package var query: ReportQuery
    /// Whether the answer is CSV (else JSON).
    package var csv: Bool

    /// The longest value of a filter.
    package static let maximumFilterLength = 256

    /// Reads a request; `now` (ms) is the default end, 24 hours before the end the default start.
    package init(dimensions segments: [String], parameters: [String: String], accept: String?, now: Int64) throws(ReportRequestError) {
        var dimensions: [ReportDimension] = []
        for segment in segments {
            guard let dimension = ReportDimension(rawValue: segment) else {
                throw ReportRequestError(
                    code: "invalid_dimension",
                    message:
                        "Unknown report dimension \"\(segment.prefix(64))\": use requestor, mvpd, platform, app, resource, client, sso, hba, reason or profile as path segments."
                )
            }
            guard !dimensions.contains(dimension) else {
                throw ReportRequestError(code: "invalid_dimension", message: "The dimension \(segment) is given twice.")
            }
            dimensions.append(dimension)
        }
        let end = try Self.time(parameters["end"], name: "end") ?? now
        let start = try Self.time(parameters["start"], name: "start") ?? end - 86_400_000
        guard start <= end else { throw ReportRequestError(code: "invalid_range", message: "start is after end.") }
        var granularity = ReportGranularity.hour
        if let text = parameters["granularity"] {
            guard let value = ReportGranularity(rawValue: text) else {
                throw ReportRequestError(code: "invalid_granularity", message: "granularity: use minute, hour, day or total.")
            }
            granularity = value
        }
        guard end - start <= granularity.maximumRange else {
            throw ReportRequestError(
                code: "invalid_range",
                message: "The range is too long for granularity=\(granularity.rawValue): at most \(granularity.maximumRange / 86_400_000) days.")
        }
        var filters: [ReportDimension: String] = [:]
        for dimension in ReportDimension.allCases {
            guard let value = parameters[dimension.rawValue] else { continue }
            guard !value.isEmpty, value.count <= Self.maximumFilterLength else {
                throw ReportRequestError(
                    code: "invalid_filter", message: "\(dimension.rawValue): give a value of 1 to \(Self.maximumFilterLength) characters.")
            }
            filters[dimension] = value
        }
        switch parameters["format"] {
        case nil: csv = accept?.lowercased().contains("text/csv") == true
        case "json": csv = false
        case "csv": csv = true
        default: throw ReportRequestError(code: "invalid_format", message: "format: use json or csv.")
        }
        // Whole minutes: the figures are kept per minute.
        let startMinute = start - ((start % 60_000) + 60_000) % 60_000
        query = ReportQuery(start: startMinute, end: end, granularity: granularity, dimensions: dimensions, filters: filters)
    }

    /// An ISO 8601 time (`2026-11-26T08:00:00Z`, with fractional seconds or an offset, or a date `2026-11-26`) in ms.
    package static func time(_ text: String?, name: String) throws(ReportRequestError) -> Int64? {
        guard let text else { return nil }
        let date =
            text.count <= 64
            ? (try? Date(text, strategy: .iso8601)) ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day()))
            : nil
        guard let date, date.timeIntervalSince1970 >= 0, date.timeIntervalSince1970 < 253_402_300_800 else {
            throw ReportRequestError(code: "invalid_date", message: "\(name): use an ISO 8601 time such as 2026-11-26T08:00:00Z.")
        }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// Why a report request was refused (HTTP 400): a code (`invalid_dimension`, `invalid_date`, `invalid_range`,
/// `invalid_granularity`, `invalid_filter`, `invalid_format`) and a message naming the parameter.
package struct ReportRequestError: Error, Sendable, Equatable {
    /// The error code.
    package var code: String
    /// What is wrong and how to ask instead.
    package var message: String

    /// Creates the value from each of its stored properties.
    package init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
