import EntitleModel
import SQLKit

/// The per-minute report figures.
package struct ReportStore: SQLStore {
    /// The database and caches this store shares with the others.
    package let base: SQLStoreBase

    /// Creates the value from each of its stored properties.
    package init(base: SQLStoreBase) {
        self.base = base
    }
}

/// The reports' per-minute figures (`report_minutes`): instances add to them, the report API sums them up.
extension ReportStore {
    /// The figure columns, in ``ReportCounts`` order, with how each combines when instances add to a row.
    private static let reportColumns = [
        "authn_attempts", "authn_successes", "authn_failures", "authz_attempts", "authz_grants", "authz_denials", "authz_failures",
        "media_tokens", "preauthorizations", "preauth_grants", "preauth_denials", "mvpd_calls", "mvpd_latency_sum_ms",
    ]

    /// Adds `counts` to the row of `minute` (created when absent): every figure is added, the maximum latency is the
    /// larger one, so any number of instances can write the same row.
    package func addReportCounts(_ minute: ReportMinute, _ counts: ReportCounts) async throws {
        try await addReportCounts([(minute, counts)])
    }

    /// Rows written by one statement (19 values each: below SQLite's oldest limit of 999 bound values).
    package static let reportRowsPerStatement = 50

    /// Adds the figures of several rows, ``reportRowsPerStatement`` rows per statement (each statement atomic; the
    /// rows of one call are distinct, as one statement may not touch a row twice on PostgreSQL).
    package func addReportCounts(_ rows: [(ReportMinute, ReportCounts)]) async throws {
        let sums = Self.reportColumns.map { "\($0) = report_minutes.\($0) + excluded.\($0)" }.joined(separator: ", ")
        for start in stride(from: 0, to: rows.count, by: Self.reportRowsPerStatement) {
            var text = SQLQueryString(
                """
                INSERT INTO report_minutes (minute, requestor_id, mvpd_id, platform, app, \(unsafeRaw: Self.reportColumns.joined(separator: ", ")),
                  mvpd_latency_max_ms) VALUES
                """)
            for (index, (minute, c)) in rows[start..<min(start + Self.reportRowsPerStatement, rows.count)].enumerated() {
                let k = minute.key
                text.appendLiteral(index == 0 ? " (" : ", (")
                let texts = [k.requestor, k.mvpd, k.platform, k.app]
                let figures = [
                    c.authnAttempts, c.authnSuccesses, c.authnFailures, c.authzAttempts, c.authzGrants, c.authzDenials, c.authzFailures,
                    c.mediaTokens, c.preauthorizations, c.preauthGrants, c.preauthDenials, c.mvpdCalls, c.mvpdLatencySumMs, c.mvpdLatencyMaxMs,
                ]
                text.appendInterpolation(bind: minute.start)
                for value in texts {
                    text.appendLiteral(", ")
                    text.appendInterpolation(bind: value)
                }
                for value in figures {
                    text.appendLiteral(", ")
                    text.appendInterpolation(bind: value)
                }
                text.appendLiteral(")")
            }
            text.appendLiteral(
                """
                 ON CONFLICT (minute, requestor_id, mvpd_id, platform, app) DO UPDATE SET \(sums),
                  mvpd_latency_max_ms = CASE WHEN excluded.mvpd_latency_max_ms > report_minutes.mvpd_latency_max_ms
                    THEN excluded.mvpd_latency_max_ms ELSE report_minutes.mvpd_latency_max_ms END
                """)
            try await run(text)
        }
    }

    /// The figures of `query`, summed per period and breakdown, sorted by period then by the dimensions' values.
    package func report(_ query: ReportQuery) async throws -> [ReportRow] {
        // Column names and period lengths come from enums, never from the request: only values are bound.
        var select = query.dimensions.map(\.column)
        var group = select
        if let length = query.granularity.milliseconds {
            select.insert("(minute / \(length)) * \(length) AS bucket", at: 0)
            group.insert("bucket", at: 0)
        }
        let sums = Self.reportColumns.map { "CAST(COALESCE(SUM(\($0)), 0) AS BIGINT) AS \($0)" }
        select += sums + ["CAST(COALESCE(MAX(mvpd_latency_max_ms), 0) AS BIGINT) AS mvpd_latency_max_ms", "COUNT(*) AS row_count"]
        var text = SQLQueryString("SELECT \(unsafeRaw: select.joined(separator: ", ")) FROM report_minutes WHERE minute >= ")
        text.appendInterpolation(bind: query.start)
        text.appendLiteral(" AND minute < ")
        text.appendInterpolation(bind: query.end)
        for dimension in ReportDimension.allCases {
            guard let value = query.filters[dimension] else { continue }
            text.appendLiteral(" AND \(dimension.column) = ")
            text.appendInterpolation(bind: value)
        }
        if !group.isEmpty {
            text.appendLiteral(" GROUP BY \(group.joined(separator: ", ")) ORDER BY \(group.joined(separator: ", "))")
        }
        let rows = try await sql.raw(text).all().compactMap { row -> ReportRow? in
            guard try row.decode(column: "row_count", as: Int64.self) > 0 else { return nil }
            var counts = ReportCounts()
            let value = { (column: String) throws -> Int64 in try row.decode(column: column, as: Int64.self) }
            counts.authnAttempts = try value("authn_attempts")
            counts.authnSuccesses = try value("authn_successes")
            counts.authnFailures = try value("authn_failures")
            counts.authzAttempts = try value("authz_attempts")
            counts.authzGrants = try value("authz_grants")
            counts.authzDenials = try value("authz_denials")
            counts.authzFailures = try value("authz_failures")
            counts.mediaTokens = try value("media_tokens")
            counts.preauthorizations = try value("preauthorizations")
            counts.preauthGrants = try value("preauth_grants")
            counts.preauthDenials = try value("preauth_denials")
            counts.mvpdCalls = try value("mvpd_calls")
            counts.mvpdLatencySumMs = try value("mvpd_latency_sum_ms")
            counts.mvpdLatencyMaxMs = try value("mvpd_latency_max_ms")
            var dimensions: [ReportDimension: String] = [:]
            for dimension in query.dimensions { dimensions[dimension] = try row.decode(column: dimension.column, as: String.self) }
            let time = query.granularity.milliseconds == nil ? nil : try value("bucket")
            return ReportRow(time: time, dimensions: dimensions, counts: counts)
        }
        // Sorted here, not by the database: the same bytewise order on both engines whatever their collation.
        return rows.sorted { a, b in
            if a.time != b.time { return (a.time ?? 0) < (b.time ?? 0) }
            for dimension in query.dimensions where a.dimensions[dimension] != b.dimensions[dimension] {
                return Array((a.dimensions[dimension] ?? "").utf8).lexicographicallyPrecedes(Array((b.dimensions[dimension] ?? "").utf8))
            }
            return false
        }
    }

    /// Deletes the figures of minutes before `cutoff` (ms since 1970).
    package func purgeReports(before cutoff: Int64) async throws {
        try await run("DELETE FROM report_minutes WHERE minute < \(bind: cutoff)")
    }
}
