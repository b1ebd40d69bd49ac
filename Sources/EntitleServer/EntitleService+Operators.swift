/// Operator accounts, for every front end, each change recorded (never the password or its hash).
extension EntitleService {
    /// Creates an operator account and records it.
    package func addOperator(username: String, role: OperatorRole, password: String, actor: String) async throws -> OperatorRecord {
        let record = try await operators.add(username: username, role: role, password: password)
        try await recordChange(actor: actor, action: "operator.add", target: username, after: OperatorView(record))
        return record
    }

    /// Disables or enables an operator account (a disabled one's sessions end) and records it.
    package func setOperatorDisabled(username: String, _ disabled: Bool, actor: String) async throws {
        let before = try await operators.setDisabled(username: username, disabled)
        var after = before
        after.disabled = disabled ? 1 : 0
        try await recordChange(
            actor: actor, action: disabled ? "operator.disable" : "operator.enable", target: username, before: OperatorView(before),
            after: OperatorView(after))
    }

    /// Sets an operator's password and records that it changed.
    package func setOperatorPassword(username: String, password: String, actor: String) async throws {
        _ = try await operators.setPassword(username: username, password: password)
        try await recordChange(actor: actor, action: "operator.password", target: username)
    }

    /// Removes an operator account and records it.
    package func removeOperator(username: String, actor: String) async throws {
        let before = try await operators.remove(username: username)
        try await recordChange(actor: actor, action: "operator.remove", target: username, before: OperatorView(before))
    }
}
