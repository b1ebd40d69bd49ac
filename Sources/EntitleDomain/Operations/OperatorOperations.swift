import EntitleModel
import EntitleStorage

/// Operator accounts, for every front end, each change recorded (never the password or its hash).
package struct OperatorOperations: Sendable {
    /// The accounts.
    package let accounts: OperatorAccounts
    /// The changes log.
    package let changes: ChangeRecorder

    /// Creates an operator account, limited to `scope` (unscoped by default), and records it. Operators are service-wide:
    /// a scoped operator can create none (so none can make an unscoped one).
    package func add(username: String, role: OperatorRole, password: String, scope: OperatorScope = OperatorScope(), actor: String) async throws
        -> OperatorRecord
    {
        try OperatorReach.requireServiceWide("operator accounts")
        try await checkScope(scope)
        let record = try await accounts.add(username: username, role: role, password: password)
        try await accounts.store.setOperatorScope(username: username, scope)
        var view = OperatorView(record)
        view.scope = scope
        try await changes.record(actor: actor, action: "operator.add", target: username, after: view)
        return record
    }

    /// Limits an operator account to `scope` (an unscoped scope lifts every limit) and records it as `operator.scope`;
    /// its sessions see the new scope on their next request. A scoped operator cannot change any scope, its own
    /// included.
    package func setScope(username: String, _ scope: OperatorScope, actor: String) async throws {
        try OperatorReach.requireServiceWide("operator accounts")
        guard try await accounts.store.operatorAccount(username: username) != nil else {
            throw AdminError("unknown_operator", "no operator \(username) (list them with `entitle admin operator list`)", status: 404)
        }
        try await checkScope(scope)
        let before = try await accounts.store.operatorScope(username: username)
        try await accounts.store.setOperatorScope(username: username, scope)
        try await changes.record(actor: actor, action: "operator.scope", target: username, before: before, after: scope)
    }

    /// The scope of an account (unscoped when it has none).
    package func scope(username: String) async throws -> OperatorScope {
        try await accounts.store.operatorScope(username: username)
    }

    /// The scope of every scoped account, by name.
    package func scopes() async throws -> [String: OperatorScope] {
        try OperatorReach.requireVisibleServiceWide("operator accounts")
        return try await accounts.store.allOperatorScopes()
    }

    /// What an enabled operator account reaches, for `entitle admin --as-operator`; refuses an unknown or disabled one.
    package func reach(username: String) async throws -> OperatorReach {
        guard let account = try await accounts.store.operatorAccount(username: username), account.disabled == 0 else {
            throw AdminError("unknown_operator", "no enabled operator \(username) (list them with `entitle admin operator list`)", status: 404)
        }
        return OperatorReach(
            username: username, role: OperatorRole(rawValue: account.role), scope: try await accounts.store.operatorScope(username: username))
    }

    /// Refuses a scope naming an unknown requestor or MVPD, or a malformed or oversized one.
    private func checkScope(_ scope: OperatorScope) async throws {
        guard scope.requestors.count + scope.mvpds.count <= 200 else {
            throw AdminError("invalid_value", "a scope names at most 200 requestors and MVPDs")
        }
        if let (kind, id) = try await accounts.store.firstUnknownScopeTarget(scope) {
            throw AdminError.unknown(kind, id, hint: "list them with `entitle admin \(kind) list`")
        }
    }

    /// Disables or enables an operator account (a disabled one's sessions end) and records it. An operator cannot disable
    /// its own account (409 `own_account`): another operator, or the CLI, does it.
    package func setDisabled(username: String, _ disabled: Bool, actor: String) async throws {
        try OperatorReach.requireServiceWide("operator accounts")
        if disabled { try Self.refuseOwnAccount(username, actor: actor, "disable") }
        let before = try await accounts.setDisabled(username: username, disabled)
        var after = before
        after.disabled = disabled ? 1 : 0
        try await changes.record(
            actor: actor, action: disabled ? "operator.disable" : "operator.enable", target: username, before: OperatorView(before),
            after: OperatorView(after))
    }

    /// Sets an operator's password and records that it changed.
    package func setPassword(username: String, password: String, actor: String) async throws {
        try OperatorReach.requireServiceWide("operator accounts")
        _ = try await accounts.setPassword(username: username, password: password)
        try await changes.record(actor: actor, action: "operator.password", target: username)
    }

    /// Lifts every sign-in lock of an operator account and records it (with how many counted failures it forgot).
    @discardableResult
    package func unlock(username: String, actor: String) async throws -> Int {
        try OperatorReach.requireServiceWide("operator accounts")
        let forgotten = try await accounts.unlock(username: username)
        try await changes.record(actor: actor, action: "operator.unlock", target: username, after: ["forgottenAttempts": forgotten])
        return forgotten
    }

    /// Removes an operator account and records it; an operator cannot remove its own account (409 `own_account`).
    package func remove(username: String, actor: String) async throws {
        try OperatorReach.requireServiceWide("operator accounts")
        try Self.refuseOwnAccount(username, actor: actor, "remove")
        let before = try await accounts.remove(username: username)
        try await accounts.store.setOperatorScope(username: username, OperatorScope())
        try await changes.record(actor: actor, action: "operator.remove", target: username, before: OperatorView(before))
    }

    /// Refuses a change an operator makes to its own account that would lock it out.
    static func refuseOwnAccount(_ username: String, actor: String, _ verb: String) throws {
        guard actor == "operator:" + username else { return }
        throw AdminError("own_account", "an operator cannot \(verb) its own account; another operator (or entitle admin) can", status: 409)
    }

    /// Creates the value from each of its stored properties.
    package init(accounts: OperatorAccounts, changes: ChangeRecorder) {
        self.accounts = accounts
        self.changes = changes
    }
}

extension OperatorOperations {
    /// Every operator account.
    package func allOperators() async throws -> [OperatorRecord] {
        try OperatorReach.requireVisibleServiceWide("operator accounts")
        return try await accounts.store.allOperators()
    }

    /// Every operator account with its scope.
    package func views() async throws -> [OperatorView] {
        let scopes = try await scopes()
        return try await allOperators().map { record in
            var view = OperatorView(record)
            view.scope = scopes[record.username] ?? OperatorScope()
            return view
        }
    }

    /// The sign-in attempts of an account that did not succeed within the limits' window, from every address.
    package func recentFailures(username: String) async throws -> Int {
        try await accounts.limits.failures(username: username, now: accounts.clock.nowMilliseconds())
    }
}
