/// A dimension of the reports: a path segment of `/admin/api/v1/reports/...` and a filter parameter.
package enum ReportDimension: String, CaseIterable, Sendable {
    case requestor, mvpd, platform, app, resource, client, sso, hba, reason, profile

    /// The column of `report_minutes`.
    package var column: String {
        switch self {
        case .requestor: "requestor_id"
        case .mvpd: "mvpd_id"
        case .platform: "platform"
        case .app: "app"
        case .resource: "resource"
        case .client: "client"
        case .sso: "sso"
        case .hba: "hba"
        case .reason: "reason"
        case .profile: "app_profile"
        }
    }
}

/// How the figures of the reports are grouped in time (UTC).
package enum ReportGranularity: String, CaseIterable, Sendable {
    case minute, hour, day, total

    /// The length of one period, ms; nil for `total` (one period: the whole range).
    package var milliseconds: Int64? {
        switch self {
        case .minute: 60_000
        case .hour: 3_600_000
        case .day: 86_400_000
        case .total: nil
        }
    }

    /// The longest range this granularity may be asked for, ms (the answer stays a few thousand rows per key).
    package var maximumRange: Int64 {
        switch self {
        case .minute: 7 * 86_400_000
        case .hour: 400 * 86_400_000
        case .day, .total: 20 * 366 * 86_400_000
        }
    }
}

/// What a report asks for: the range `[start, end)` in ms since 1970, the granularity, the dimensions to break the
/// figures down by (in the order asked) and filters on dimensions.
package struct ReportQuery: Sendable, Equatable {
    /// Range start (inclusive), ms since 1970.
    package var start: Int64
    /// Range end (exclusive), ms since 1970.
    package var end: Int64
    /// The periods.
    package var granularity: ReportGranularity
    /// The breakdown, in the order asked.
    package var dimensions: [ReportDimension]
    /// Only figures whose dimension has this value.
    package var filters: [ReportDimension: String]
    /// Only figures whose dimension has one of these values (an operator limited to some requestors or MVPDs: the
    /// hook for scoped operators, applied by the store on top of ``filters``). An empty set matches nothing.
    package var restrictions: [ReportDimension: Set<String>] = [:]

    /// Creates a query.
    package init(
        start: Int64, end: Int64, granularity: ReportGranularity = .hour, dimensions: [ReportDimension] = [],
        filters: [ReportDimension: String] = [:]
    ) {
        (self.start, self.end, self.granularity, self.dimensions, self.filters) = (start, end, granularity, dimensions, filters)
    }
}

/// One row of a report: the period's start (nil for `total`), the values of the dimensions asked for, the figures.
package struct ReportRow: Sendable, Equatable {
    /// The period's start, ms since 1970; nil when the granularity is `total`.
    package var time: Int64?
    /// The value of each dimension of the breakdown.
    package var dimensions: [ReportDimension: String]
    /// The figures.
    package var counts: ReportCounts

    /// Creates the value from each of its stored properties.
    package init(time: Int64? = nil, dimensions: [ReportDimension: String], counts: ReportCounts) {
        self.time = time
        self.dimensions = dimensions
        self.counts = counts
    }
}
