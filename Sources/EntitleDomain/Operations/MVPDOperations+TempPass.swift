import EntitleModel
import EntitleStorage

extension MVPDOperations {
    /// The longest TempPass, in minutes (a year).
    package static let tempPassMaximumMinutes = 525_600

    /// Adds or updates a TempPass pseudo-MVPD offered to `requestors` (at least one) and records it: `minutes` long
    /// (1 to a year); a `resourceLimit` makes it a Promotional TempPass (that many distinct resources per identity).
    package func addTempPass(
        id: String, displayName: String, logoURL: String, minutes: Int, resourceLimit: Int?, requestors: [String], actor: String
    ) async throws {
        guard !id.isEmpty, id.count <= 128, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw AdminError("invalid_value", "a TempPass id may hold letters, digits, _ and - only")
        }
        guard !displayName.isEmpty else { throw AdminError("invalid_value", "a TempPass needs a display name") }
        guard !requestors.isEmpty else { throw AdminError("invalid_value", "give the requestors to offer the TempPass to (at least one)") }
        guard (1...Self.tempPassMaximumMinutes).contains(minutes) else {
            throw AdminError("invalid_value", "a TempPass lasts 1 to \(Self.tempPassMaximumMinutes) minutes")
        }
        if let resourceLimit, resourceLimit <= 0 { throw AdminError("invalid_value", "the resources per identity must be positive") }
        for requestor in requestors { try await lookups.enabledRequestor(requestor) }
        try OperatorReach.requireMVPDSave(id, exists: try await catalog.mvpd(id: id) != nil)
        if let existing = try await catalog.mvpd(id: id), !existing.isTempPass {
            throw AdminError("mvpd_exists", "\(id) is an MVPD that is not a TempPass", status: 409)
        }
        try await saveTempPass(
            id: id, displayName: displayName, logoURL: logoURL, minutes: minutes, resourceLimit: resourceLimit, requestors: requestors)
        try await changes.record(
            actor: actor, action: "temppass.add", target: id,
            after: [
                "name": displayName, "minutes": "\(minutes)", "resources": resourceLimit.map(String.init) ?? "-",
                "requestors": requestors.joined(separator: " "),
            ])
    }
}
