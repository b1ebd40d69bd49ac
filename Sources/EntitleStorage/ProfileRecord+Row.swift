import EntitleCore
import EntitleModel
import SQLKit

extension ProfileRecord {
    /// Decodes a `profiles` row by column name: profiles are read on every decision, and the generic row decoder
    /// (which converts every key to snake_case on each access) cost more than the query.
    package init(row: any SQLRow) throws {
        self.init(
            requestorId: try row.decode(column: "requestor_id", as: String.self),
            clientId: try row.decode(column: "client_id", as: String.self),
            deviceId: try row.decode(column: "device_id", as: String.self),
            mvpdId: try row.decode(column: "mvpd_id", as: String.self),
            type: ProfileType(rawValue: try row.decode(column: "type", as: String.self)),
            issuer: try row.decode(column: "issuer", as: String.self),
            notBefore: try row.decode(column: "not_before", as: Int64.self),
            notAfter: try row.decode(column: "not_after", as: Int64.self),
            attributes: try row.decode(column: "attributes", as: String.self),
            nameId: try row.decode(column: "name_id", as: String.self),
            sessionIndex: try row.decode(column: "session_index", as: String?.self),
            sessionCode: try row.decode(column: "session_code", as: String?.self),
            userId: try row.decode(column: "user_id", as: String.self),
            lineup: try row.decode(column: "lineup", as: String?.self))
    }
}
