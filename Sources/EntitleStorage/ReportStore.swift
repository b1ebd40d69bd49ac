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
    /// larger one, the accounts and visitors join the row's sets, so any number of instances can write the same row.
    package func addReportCounts(_ minute: ReportMinute, _ counts: ReportCounts) async throws {
        try await addReportCounts([(minute, counts)])
    }

    /// Rows written by one statement (27 values each: below SQLite's oldest limit of 999 bound values).
    package static let reportRowsPerStatement = 36
    /// Accounts (or visitors) written by one statement (3 values each).
    package static let accountsPerStatement = 300

    /// The key columns of a row, in ``ReportKey`` order.
    private static let keyColumns = "requestor_id, mvpd_id, platform, app, resource, client, sso, hba, reason, app_profile"

    /// A set of distinct members the rows keep beside their figures: the accounts of ``ReportCounts/accounts``
    /// (`report_accounts`) or the visitors of ``ReportCounts/visitors`` (`report_visitors`). Table and column names are
    /// these constants, never input.
    private struct MemberSet {
        var table: String
        var column: String
        var members: (ReportCounts) -> Set<Int64>

        static var accounts: MemberSet { MemberSet(table: "report_accounts", column: "account") { $0.accounts } }
        static var visitors: MemberSet { MemberSet(table: "report_visitors", column: "visitor") { $0.visitors } }
    }

    /// Adds the figures of several rows, ``reportRowsPerStatement`` rows per statement (each statement atomic; the
    /// rows of one call are distinct, as one statement may not touch a row twice on PostgreSQL). Each row's accounts
    /// and visitors are written first (a union: writing them again after a failure changes nothing), then its figures.
    package func addReportCounts(_ rows: [(ReportMinute, ReportCounts)]) async throws {
        try await addMembers(.accounts, of: rows)
        try await addMembers(.visitors, of: rows)
        let sums = Self.reportColumns.map { "\($0) = report_minutes.\($0) + excluded.\($0)" }.joined(separator: ", ")
        for start in stride(from: 0, to: rows.count, by: Self.reportRowsPerStatement) {
            var text = SQLQueryString(
                """
                INSERT INTO report_minutes (minute, \(unsafeRaw: Self.keyColumns), row_key, \(unsafeRaw: Self.reportColumns.joined(separator: ", ")),
                  mvpd_latency_max_ms) VALUES
                """)
            for (index, (minute, c)) in rows[start..<min(start + Self.reportRowsPerStatement, rows.count)].enumerated() {
                let k = minute.key
                text.appendLiteral(index == 0 ? " (" : ", (")
                let texts = [k.requestor, k.mvpd, k.platform, k.app, k.resource, k.client, k.sso, k.hba, k.reason, k.appProfile]
                let figures = [
                    k.rowKey, c.authnAttempts, c.authnSuccesses, c.authnFailures, c.authzAttempts, c.authzGrants, c.authzDenials,
                    c.authzFailures, c.mediaTokens, c.preauthorizations, c.preauthGrants, c.preauthDenials, c.mvpdCalls, c.mvpdLatencySumMs,
                    c.mvpdLatencyMaxMs,
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
                 ON CONFLICT (minute, \(Self.keyColumns)) DO UPDATE SET \(sums),
                  mvpd_latency_max_ms = CASE WHEN excluded.mvpd_latency_max_ms > report_minutes.mvpd_latency_max_ms
                    THEN excluded.mvpd_latency_max_ms ELSE report_minutes.mvpd_latency_max_ms END
                """)
            try await run(text)
        }
    }

    /// Adds the members of `set` of each row to its table, ``accountsPerStatement`` per statement.
    private func addMembers(_ set: MemberSet, of rows: [(ReportMinute, ReportCounts)]) async throws {
        var members: [(Int64, Int64, Int64)] = []
        for (minute, counts) in rows {
            let values = set.members(counts)
            guard !values.isEmpty else { continue }
            let rowKey = minute.key.rowKey
            for value in values { members.append((minute.start, rowKey, value)) }
        }
        for start in stride(from: 0, to: members.count, by: Self.accountsPerStatement) {
            var text = SQLQueryString("INSERT INTO \(unsafeRaw: set.table) (minute, row_key, \(unsafeRaw: set.column)) VALUES ")
            for (index, (minute, rowKey, value)) in members[start..<min(start + Self.accountsPerStatement, members.count)].enumerated() {
                text.appendLiteral(index == 0 ? "(" : ", (")
                text.appendInterpolation(bind: minute)
                text.appendLiteral(", ")
                text.appendInterpolation(bind: rowKey)
                text.appendLiteral(", ")
                text.appendInterpolation(bind: value)
                text.appendLiteral(")")
            }
            text.appendLiteral(" ON CONFLICT (minute, row_key, \(set.column)) DO NOTHING")
            try await run(text)
        }
    }

    /// The range, the filters and the restrictions of `query` as a `WHERE` clause on `report_minutes` named `table`.
    private static func whereClause(_ query: ReportQuery, table: String) -> SQLQueryString {
        var text = SQLQueryString(" WHERE \(unsafeRaw: table).minute >= ")
        text.appendInterpolation(bind: query.start)
        text.appendLiteral(" AND \(table).minute < ")
        text.appendInterpolation(bind: query.end)
        for dimension in ReportDimension.allCases {
            if let value = query.filters[dimension] {
                text.appendLiteral(" AND \(table).\(dimension.column) = ")
                text.appendInterpolation(bind: value)
            }
            if let allowed = query.restrictions[dimension] {
                guard !allowed.isEmpty else {
                    text.appendLiteral(" AND 1 = 0")
                    continue
                }
                text.appendLiteral(" AND \(table).\(dimension.column) IN (")
                for (index, value) in allowed.sorted().enumerated() {
                    if index > 0 { text.appendLiteral(", ") }
                    text.appendInterpolation(bind: value)
                }
                text.appendLiteral(")")
            }
        }
        return text
    }

    /// The distinct members of `set` (accounts or visitors) of each period and breakdown of `query`, by the period's
    /// start (nil for `total`) and the dimensions' values.
    private func distinctMembers(_ set: MemberSet, _ query: ReportQuery) async throws -> [ReportRowID: Int64] {
        var select = query.dimensions.map { "m." + $0.column }
        var group = select
        if let length = query.granularity.milliseconds {
            select.insert("(m.minute / \(length)) * \(length) AS bucket", at: 0)
            group.insert("bucket", at: 0)
        }
        select.append("COUNT(DISTINCT a.\(set.column)) AS members")
        var text = SQLQueryString(
            """
            SELECT \(unsafeRaw: select.joined(separator: ", ")) FROM report_minutes m
              JOIN \(unsafeRaw: set.table) a ON a.minute = m.minute AND a.row_key = m.row_key
            """)
        text.appendInterpolation(Self.whereClause(query, table: "m"))
        if !group.isEmpty { text.appendLiteral(" GROUP BY \(group.joined(separator: ", "))") }
        var result: [ReportRowID: Int64] = [:]
        for row in try await sql.raw(text).all() {
            var values: [String] = []
            for dimension in query.dimensions { values.append(try row.decode(column: dimension.column, as: String.self)) }
            let time = query.granularity.milliseconds == nil ? nil : try row.decode(column: "bucket", as: Int64.self)
            result[ReportRowID(time: time, values: values)] = try row.decode(column: "members", as: Int64.self)
        }
        return result
    }

    /// A row of a report: its period and the values of its dimensions.
    private struct ReportRowID: Hashable {
        var time: Int64?
        var values: [String]
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
        var text = SQLQueryString("SELECT \(unsafeRaw: select.joined(separator: ", ")) FROM report_minutes")
        text.appendInterpolation(Self.whereClause(query, table: "report_minutes"))
        if !group.isEmpty {
            text.appendLiteral(" GROUP BY \(group.joined(separator: ", ")) ORDER BY \(group.joined(separator: ", "))")
        }
        let accounts = try await distinctMembers(.accounts, query)
        let visitors = try await distinctMembers(.visitors, query)
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
            let id = ReportRowID(time: time, values: query.dimensions.map { dimensions[$0] ?? "" })
            counts.uniqueAccounts = accounts[id] ?? 0
            counts.uniqueVisitors = visitors[id] ?? 0
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

    /// Unlinks an account from the reports (a privacy erase): every `report_accounts` row of `account` (``ReportAccount``
    /// of the user's MVPD and user id) takes `replacement` instead (a fresh random value), so each row keeps its count of
    /// distinct accounts — the same stranger in every minute — while nothing in it can be traced back to the user.
    /// Returns the rows changed. Flush the instance's pending figures first (they hold the account for up to 10 s).
    package func unlinkReportAccount(_ account: Int64, replacement: Int64 = Int64.random(in: .min ... .max)) async throws -> Int {
        let changed = try await sql.raw(
            "UPDATE report_accounts SET account = \(bind: replacement) WHERE account = \(bind: account) RETURNING minute"
        ).all()
        return changed.count
    }

    /// Deletes the figures of minutes before `cutoff` (ms since 1970).
    package func purgeReports(before cutoff: Int64) async throws {
        try await run("DELETE FROM report_minutes WHERE minute < \(bind: cutoff)")
        try await run("DELETE FROM report_accounts WHERE minute < \(bind: cutoff)")
        try await run("DELETE FROM report_visitors WHERE minute < \(bind: cutoff)")
    }
}
