import EntitleModel

/// What the acting operator may see and change, checked by the operations every front end uses: the admin
/// API and the console establish it once per request from the session (``current``), `entitle admin --as-operator`
/// for the whole command. Without one (the CLI as the service's owner, the demo seeding, the service itself) every
/// operation reaches everything, as does an unscoped operator.
///
/// A requestor-scoped operator (a programmer's team) sees and changes its requestors, their integrations (with any
/// MVPD), software statements, clients, degradation rules, TempPass resets, authorization TTLs, media-token algorithms
/// and legacy key pairs, and the MVPDs integrated with its requestors (read-only: an MVPD's own settings serve every
/// requestor). An MVPD-scoped operator (an MVPD partner) sees its MVPDs and their integrations and, with the read-write
/// role, changes their settings and integrations. Service-wide things (keys, operators, cache flush, SSO issuers,
/// proxy MVPDs, adding or removing MVPDs, degradation rules or TTLs for every requestor) are refused to both, with a
/// 403 `out_of_scope`; lists are filtered rather than refused.
package struct OperatorReach: Sendable, Equatable {
    /// The operator's login name.
    package var username: String
    /// The operator's role.
    package var role: OperatorRole
    /// What the operator is limited to.
    package var scope: OperatorScope

    /// The acting operator of this task, when one acts.
    @TaskLocal package static var current: OperatorReach?

    /// Creates the value from each of its stored properties.
    package init(username: String, role: OperatorRole, scope: OperatorScope) {
        (self.username, self.role, self.scope) = (username, role, scope)
    }

    /// The acting operator when it is scoped; nil when everything is reachable.
    package static var scoped: OperatorReach? {
        guard let current, !current.scope.isUnscoped else { return nil }
        return current
    }

    /// The refusal of something outside the operator's scope.
    package func outOfScope(_ what: String) -> AdminError {
        AdminError(
            "out_of_scope", "operator \(username) is limited to \(scope.summary): \(what) is outside its scope (an unscoped operator can)",
            status: 403)
    }

    // MARK: - Checks of a change (a read-only acting operator is refused any change)

    /// Refuses any change to a read-only acting operator (the CLI's `--as-operator` too; the admin API and the console
    /// refuse it before this).
    package static func requireChange() throws {
        guard let current, !current.role.mayChange else { return }
        throw AdminError("forbidden", "operator \(current.username) is read-only", status: 403)
    }

    /// Refuses a change that concerns the whole service (keys, operators, catalog-wide actions) to a scoped operator.
    package static func requireServiceWide(_ what: String) throws {
        try requireChange()
        if let reach = scoped { throw reach.outOfScope(what) }
    }

    /// Refuses a change to a requestor (its settings, apps, clients, rules, keys) outside the operator's requestors.
    package static func requireRequestor(_ id: String) throws {
        try requireChange()
        if let reach = scoped, !reach.scope.requestors.contains(id) { throw reach.outOfScope("requestor \(id)") }
    }

    /// Refuses a change to something several requestors share (an SSO issuer) unless every one of them is the
    /// operator's.
    package static func requireRequestors(_ ids: [String], _ what: String) throws {
        try requireChange()
        if let reach = scoped, !maySee(requestors: ids) { throw reach.outOfScope(what) }
    }

    /// Refuses a change to an MVPD's own settings outside the operator's MVPDs (a requestor-scoped operator changes no
    /// MVPD: its settings serve every requestor).
    package static func requireMVPD(_ id: String) throws {
        try requireChange()
        if let reach = scoped, !reach.scope.mvpds.contains(id) { throw reach.outOfScope("MVPD \(id)") }
    }

    /// Refuses a change to an integration unless its requestor or its MVPD is the operator's.
    package static func requireIntegration(requestor: String, mvpd: String) throws {
        try requireChange()
        if let reach = scoped, !reach.mayReach(requestor: requestor, mvpd: mvpd) {
            throw reach.outOfScope("the integration \(requestor)/\(mvpd)")
        }
    }

    // MARK: - What may be seen

    /// Refuses the reading of something service-wide (keys, operators, SSO issuers) to a scoped operator.
    package static func requireVisibleServiceWide(_ what: String) throws {
        if let reach = scoped { throw reach.outOfScope(what) }
    }

    /// Refuses the reading of a requestor outside the operator's requestors.
    package static func requireVisibleRequestor(_ id: String) throws {
        if let reach = scoped, !reach.scope.requestors.contains(id) { throw reach.outOfScope("requestor \(id)") }
    }

    /// Whether the acting operator may see this requestor.
    package static func maySee(requestor id: String) -> Bool {
        scoped.map { $0.scope.requestors.contains(id) } ?? true
    }

    /// Whether the acting operator may see something several requestors share: every one of them is its own.
    package static func maySee(requestors ids: [String]) -> Bool {
        guard let reach = scoped else { return true }
        return !ids.isEmpty && ids.allSatisfy { reach.scope.requestors.contains($0) }
    }

    /// Whether the acting operator may see this integration.
    package static func maySee(requestor: String, mvpd: String) -> Bool {
        scoped.map { $0.mayReach(requestor: requestor, mvpd: mvpd) } ?? true
    }

    /// Whether the acting operator may see this MVPD: its own, or one integrated with one of its requestors
    /// (`integratedRequestors`).
    package static func maySee(mvpd: String, integratedRequestors: [String]) -> Bool {
        guard let reach = scoped else { return true }
        return reach.scope.mvpds.contains(mvpd) || integratedRequestors.contains { reach.scope.requestors.contains($0) }
    }

    /// Whether the acting operator may see a changes-log entry: its own, or one whose target (`R`, `M`, `R/M`, …) names
    /// one of its requestors or MVPDs.
    package static func maySee(change: ChangeRecord) -> Bool {
        guard let reach = scoped else { return true }
        if change.actor == "operator:" + reach.username { return true }
        let parts = change.target.split(separator: "/").map(String.init)
        return parts.contains { reach.scope.requestors.contains($0) || reach.scope.mvpds.contains($0) }
    }

    /// Whether the requestor or the MVPD of an integration is within the scope.
    private func mayReach(requestor: String, mvpd: String) -> Bool {
        scope.requestors.contains(requestor) || scope.mvpds.contains(mvpd)
    }
}
