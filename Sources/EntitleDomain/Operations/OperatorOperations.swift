import EntitleModel
import EntitleStorage

/// Operator accounts, for every front end, each change recorded (never the password or its hash).
package struct OperatorOperations: Sendable {
    /// The accounts.
    package let accounts: OperatorAccounts
    /// The changes log.
    package let changes: ChangeRecorder

    /// Creates an operator account and records it.
    package func add(username: String, role: OperatorRole, password: String, actor: String) async throws -> OperatorRecord {
        let record = try await accounts.add(username: username, role: role, password: password)
        try await changes.record(actor: actor, action: "operator.add", target: username, after: OperatorView(record))
        return record
    }

    /// Disables or enables an operator account (a disabled one's sessions end) and records it. An operator cannot disable
    /// its own account (409 `own_account`): another operator, or the CLI, does it.
    package func setDisabled(username: String, _ disabled: Bool, actor: String) async throws {
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
        _ = try await accounts.setPassword(username: username, password: password)
        try await changes.record(actor: actor, action: "operator.password", target: username)
    }

    /// Lifts every sign-in lock of an operator account and records it (with how many counted failures it forgot).
    @discardableResult
    package func unlock(username: String, actor: String) async throws -> Int {
        let forgotten = try await accounts.unlock(username: username)
        try await changes.record(actor: actor, action: "operator.unlock", target: username, after: ["forgottenAttempts": forgotten])
        return forgotten
    }

    /// Removes an operator account and records it; an operator cannot remove its own account (409 `own_account`).
    package func remove(username: String, actor: String) async throws {
        try Self.refuseOwnAccount(username, actor: actor, "remove")
        let before = try await accounts.remove(username: username)
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
        try await accounts.store.allOperators()
    }

    /// The sign-in attempts of an account that did not succeed within the limits' window, from every address.
    package func recentFailures(username: String) async throws -> Int {
        try await accounts.limits.failures(username: username, now: accounts.clock.nowMilliseconds())
    }
}
