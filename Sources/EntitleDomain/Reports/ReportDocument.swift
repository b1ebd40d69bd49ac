import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// A report as the admin API answers it: JSON (`{"start", "end", "granularity", "dimensions", "rows"}`) or CSV
/// (RFC 4180: a header row, CRLF line ends, fields with commas, quotes or line breaks quoted). Each row has `time`
/// (the period's start, not for `total`), the dimensions asked for, and the figures.
package struct ReportDocument: Sendable {
    /// What was asked.
    package var query: ReportQuery
    /// The figures.
    package var rows: [ReportRow]

    /// Creates a document.
    package init(query: ReportQuery, rows: [ReportRow]) { (self.query, self.rows) = (query, rows) }

    /// The names of the figures, in the order of the CSV columns.
    package static let figureNames = [
        "authnAttempts", "authnSuccesses", "authnFailures", "authzAttempts", "authzGrants", "authzDenials", "authzFailures", "mediaTokens",
        "preauthorizations", "preauthGrants", "preauthDenials", "mvpdCalls", "mvpdLatencyAvgMs", "mvpdLatencyMaxMs", "uniqueAccounts",
        "uniqueVisitors",
    ]

    /// The figures of a row, in ``figureNames`` order (the average latency rounded to 0.001 ms).
    package static func figures(_ c: ReportCounts) -> [Double] {
        let average = c.mvpdCalls > 0 ? (Double(c.mvpdLatencySumMs) / Double(c.mvpdCalls) * 1000).rounded() / 1000 : 0
        return [
            c.authnAttempts, c.authnSuccesses, c.authnFailures, c.authzAttempts, c.authzGrants, c.authzDenials, c.authzFailures,
            c.mediaTokens, c.preauthorizations, c.preauthGrants, c.preauthDenials, c.mvpdCalls,
        ].map(Double.init) + [average, Double(c.mvpdLatencyMaxMs), Double(c.uniqueAccounts), Double(c.uniqueVisitors)]
    }

    /// A time as the report shows it: `2026-11-26T08:00:00Z`.
    package static func iso(_ milliseconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000).ISO8601Format()
    }

    /// A figure as text: whole numbers without a decimal point.
    package static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The JSON document.
    package var json: Data {
        var object: [String: JSONValue] = [
            "start": .string(Self.iso(query.start)), "end": .string(Self.iso(query.end)),
            "granularity": .string(query.granularity.rawValue),
            "dimensions": .array(query.dimensions.map { .string($0.rawValue) }),
        ]
        object["rows"] = .array(
            rows.map { row in
                var fields: [String: JSONValue] = [:]
                if let time = row.time { fields["time"] = .string(Self.iso(time)) }
                for dimension in query.dimensions { fields[dimension.rawValue] = .string(row.dimensions[dimension] ?? "") }
                for (name, value) in zip(Self.figureNames, Self.figures(row.counts)) { fields[name] = .number(value) }
                return .object(fields)
            })
        return JSONCoding.encode(JSONValue.object(object))
    }

    /// The CSV document.
    package var csv: String {
        var header = query.granularity == .total ? [] : ["time"]
        header += query.dimensions.map(\.rawValue) + Self.figureNames
        var lines = [header.map(Self.csvField).joined(separator: ",")]
        for row in rows {
            var fields = row.time.map { [Self.iso($0)] } ?? []
            fields += query.dimensions.map { row.dimensions[$0] ?? "" }
            fields += Self.figures(row.counts).map(Self.text)
            lines.append(fields.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A file name for the download: `entitle-report-<dimensions or totals>-<granularity>-<start>.csv`.
    package var fileName: String {
        let dimensions = query.dimensions.isEmpty ? "totals" : query.dimensions.map(\.rawValue).joined(separator: "-")
        let start = Self.iso(query.start).filter { $0.isNumber || $0 == "T" || $0 == "Z" }
        return "entitle-report-\(dimensions)-\(query.granularity.rawValue)-\(start).csv"
    }

    /// A field quoted as RFC 4180 requires (and a leading `=`, `+`, `-`, `@` made inert for spreadsheets).
    package static func csvField(_ value: String) -> String {
        var value = value
        if let first = value.first, "=+-@".contains(first), Double(value) == nil { value = "'" + value }
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
