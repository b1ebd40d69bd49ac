import EntitleModel
import SQLKit

/// The scopes of operator accounts (migration 117): the requestors and MVPDs each is limited to.
extension OperatorStore {
    private struct ScopeRow: Decodable {
        var username: String
        var kind: String
        var value: String
    }

    /// The scope of an account; unscoped when it has no rows (or does not exist).
    package func operatorScope(username: String) async throws -> OperatorScope {
        Self.scopes(try await all("SELECT * FROM operator_scopes WHERE username = \(bind: username)", as: ScopeRow.self))[username]
            ?? OperatorScope()
    }

    /// The scope of every scoped account, by name (an account absent here is unscoped).
    package func allOperatorScopes() async throws -> [String: OperatorScope] {
        Self.scopes(try await all("SELECT * FROM operator_scopes", as: ScopeRow.self))
    }

    /// Replaces the scope of an account (an unscoped scope removes its rows).
    package func setOperatorScope(username: String, _ scope: OperatorScope) async throws {
        try await run("DELETE FROM operator_scopes WHERE username = \(bind: username)")
        for (kind, values) in [("requestor", scope.requestors), ("mvpd", scope.mvpds)] {
            for value in values {
                try await run(
                    """
                    INSERT INTO operator_scopes (username, kind, value) VALUES (\(bind: username), \(bind: kind), \(bind: value))
                    ON CONFLICT (username, kind, value) DO NOTHING
                    """)
            }
        }
    }

    /// The first requestor or MVPD of a scope that does not exist (`("requestor", id)` or `("mvpd", id)`), nil when all do.
    package func firstUnknownScopeTarget(_ scope: OperatorScope) async throws -> (kind: String, id: String)? {
        for id in scope.requestors where try await sql.raw("SELECT id FROM requestors WHERE id = \(bind: id)").first() == nil {
            return ("requestor", id)
        }
        for id in scope.mvpds where try await sql.raw("SELECT id FROM mvpds WHERE id = \(bind: id)").first() == nil { return ("mvpd", id) }
        return nil
    }

    private static func scopes(_ rows: [ScopeRow]) -> [String: OperatorScope] {
        var requestors: [String: [String]] = [:], mvpds: [String: [String]] = [:]
        for row in rows {
            if row.kind == "requestor" { requestors[row.username, default: []].append(row.value) }
            if row.kind == "mvpd" { mvpds[row.username, default: []].append(row.value) }
        }
        var scopes: [String: OperatorScope] = [:]
        for name in Set(requestors.keys).union(mvpds.keys) {
            scopes[name] = OperatorScope(requestors: requestors[name] ?? [], mvpds: mvpds[name] ?? [])
        }
        return scopes
    }
}
