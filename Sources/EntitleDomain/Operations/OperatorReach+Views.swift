import EntitleModel

/// What a scoped operator sees of the admin views: the MVPDs and integrations within its reach, and of an
/// MVPD only the integrations and per-requestor settings of its requestors (an MVPD partner sees all of its MVPD's).
extension OperatorReach {
    /// The view as the acting operator may see it; nil when it may not see that MVPD at all.
    package static func visible(_ view: MVPDView) -> MVPDView? {
        guard let reach = scoped else { return view }
        guard maySee(mvpd: view.id, integratedRequestors: view.integrations.map(\.requestor)) else { return nil }
        guard !reach.scope.mvpds.contains(view.id) else { return view }
        var view = view
        view.integrations = view.integrations.filter { reach.scope.requestors.contains($0.requestor) }
        view.preflightMaxResources = view.preflightMaxResources.filter { reach.scope.requestors.contains($0.key) }
        view.preflightLineup = view.preflightLineup.filter { reach.scope.requestors.contains($0.key) }
        return view
    }

    /// Refuses adding an MVPD to a scoped operator (MVPDs serve every requestor), and replacing one outside its MVPDs.
    package static func requireMVPDSave(_ id: String, exists: Bool) throws {
        if exists { try requireMVPD(id) } else { try requireServiceWide("adding an MVPD") }
    }

    /// The MVPD view, refused (403 `out_of_scope`) when the acting operator may not see that MVPD.
    package static func requireVisible(_ view: MVPDView) throws -> MVPDView {
        guard let visible = visible(view) else {
            throw scoped.map { $0.outOfScope("MVPD \(view.id)") } ?? AdminError("out_of_scope", "", status: 403)
        }
        return visible
    }
}
