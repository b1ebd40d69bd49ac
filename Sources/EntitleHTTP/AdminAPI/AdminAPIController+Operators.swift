import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// Operator accounts, as `entitle admin operator add|scope|disable|enable|password|unlock|remove` changes them (the list
/// is `GET operators`): the same operations, the same changes-log entries, never a password in an answer or the log.
/// Only an unscoped operator manages accounts (403 `out_of_scope` for a scoped one).
extension AdminAPIController {
    package func addOperatorRoutes(to group: RouterGroup<AdminContext>) {
        group.post("operators") { request, context in
            let body = try await Self.decode(NewOperator.self, request, context: context)
            let role = OperatorRole(rawValue: body.role)
            guard role.isKnown else { throw AdminAPIError.make(400, "invalid_value", "role \(body.role): use read-only or read-write") }
            let scope = OperatorScope(requestors: body.requestors ?? [], mvpds: body.mvpds ?? [])
            let record = try await service.operatorChanges.add(
                username: body.username, role: role, password: body.password, scope: scope, actor: context.operatorIdentity.actor)
            var view = OperatorView(record)
            view.scope = scope
            return Self.json(view, status: .created)
        }
        group.put("operators/:username/scope") { request, context in
            let username = try context.parameters.require("username")
            let body = try await Self.decode(OperatorScopeBody.self, request, context: context)
            try await service.operatorChanges.setScope(
                username: username, OperatorScope(requestors: body.requestors ?? [], mvpds: body.mvpds ?? []), actor: context.operatorIdentity.actor)
            guard let view = try await service.operatorChanges.views().first(where: { $0.username == username }) else {
                throw AdminAPIError.make(404, "unknown_operator", "no operator \(username)")
            }
            return Self.json(view)
        }
        group.post("operators/:username/disable") { _, context in try await setOperator(context, disabled: true) }
        group.post("operators/:username/enable") { _, context in try await setOperator(context, disabled: false) }
        group.put("operators/:username/password") { request, context in
            let body = try await Self.decode(NewPassword.self, request, context: context)
            try await service.operatorChanges.setPassword(
                username: try context.parameters.require("username"), password: body.password, actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
        group.post("operators/:username/unlock") { _, context in
            let username = try context.parameters.require("username")
            let forgotten = try await service.operatorChanges.unlock(username: username, actor: context.operatorIdentity.actor)
            return Self.json(OperatorUnlockView(username: username, forgottenAttempts: forgotten))
        }
        group.delete("operators/:username") { _, context in
            try await service.operatorChanges.remove(username: try context.parameters.require("username"), actor: context.operatorIdentity.actor)
            return Response(status: .noContent)
        }
    }

    package func setOperator(_ context: AdminContext, disabled: Bool) async throws -> Response {
        let username = try context.parameters.require("username")
        try await service.operatorChanges.setDisabled(username: username, disabled, actor: context.operatorIdentity.actor)
        guard let record = try await service.operatorChanges.allOperators().first(where: { $0.username == username }) else {
            throw AdminAPIError.make(404, "unknown_operator", "no operator \(username)")
        }
        return Self.json(OperatorView(record))
    }

    /// The body of `POST operators`: without `requestors` and `mvpds` an unscoped operator.
    package struct NewOperator: Decodable {
        package var username: String
        package var role: String
        package var password: String
        package var requestors: [String]?
        package var mvpds: [String]?
    }

    /// The body of `PUT operators/{username}/scope`: both lists empty (or absent) lift every limit.
    package struct OperatorScopeBody: Decodable {
        package var requestors: [String]?
        package var mvpds: [String]?
    }

    /// The body of `PUT operators/{username}/password`.
    package struct NewPassword: Decodable {
        package var password: String
    }

    /// What `POST operators/{username}/unlock` forgot.
    package struct OperatorUnlockView: Encodable {
        package var username: String
        package var forgottenAttempts: Int
    }
}
