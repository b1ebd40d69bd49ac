import EntitleModel

/// The reports a scoped operator may read.
extension OperatorReach {
    /// The report query as the acting operator may ask it: a filter on one of its requestors or MVPDs stands; a filter
    /// on another one is refused (403 `out_of_scope`); without either, the figures are limited to its requestors (or,
    /// for an MVPD partner, to its MVPDs).
    package static func restricted(_ query: ReportQuery) throws -> ReportQuery {
        guard let reach = scoped else { return query }
        if let requestor = query.filters[.requestor], reach.scope.requestors.contains(requestor) { return query }
        if let mvpd = query.filters[.mvpd], reach.scope.mvpds.contains(mvpd) { return query }
        if let requestor = query.filters[.requestor] { throw reach.outOfScope("the figures of requestor \(requestor)") }
        if let mvpd = query.filters[.mvpd] { throw reach.outOfScope("the figures of MVPD \(mvpd)") }
        var query = query
        if reach.scope.requestors.isEmpty {
            query.restrictions[.mvpd] = Set(reach.scope.mvpds)
        } else {
            query.restrictions[.requestor] = Set(reach.scope.requestors)
        }
        return query
    }
}
