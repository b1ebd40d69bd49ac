/// What an operator account may reach: every requestor and MVPD when both lists are empty (an unscoped
/// operator, the reach operators had before scopes), else only the requestors named (a programmer's team: those
/// requestors, their integrations, apps, clients, degradation rules and reports) and the MVPDs named (an MVPD partner:
/// that MVPD, its integrations and its reports). Stored in `operator_scopes` (migration 117).
package struct OperatorScope: Codable, Sendable, Equatable, Hashable {
    /// The requestors this operator may see and change, sorted; empty: none by this route.
    package var requestors: [String]
    /// The MVPDs this operator may see (and, with the read-write role, change), sorted; empty: none by this route.
    package var mvpds: [String]

    /// An unscoped operator's scope (everything).
    package init() { (requestors, mvpds) = ([], []) }

    /// A scope of these requestors and MVPDs (sorted, without repeats).
    package init(requestors: [String], mvpds: [String]) {
        self.requestors = Array(Set(requestors)).sorted()
        self.mvpds = Array(Set(mvpds)).sorted()
    }

    /// Whether the operator reaches everything (no requestor and no MVPD named).
    package var isUnscoped: Bool { requestors.isEmpty && mvpds.isEmpty }

    /// How the CLI and the changes log show it: `all`, or `requestor:A,B mvpd:C`.
    package var summary: String {
        guard !isUnscoped else { return "all" }
        var parts: [String] = []
        if !requestors.isEmpty { parts.append("requestor:" + requestors.joined(separator: ",")) }
        if !mvpds.isEmpty { parts.append("mvpd:" + mvpds.joined(separator: ",")) }
        return parts.joined(separator: " ")
    }
}
