import EntitleCore
import Foundation
import Hummingbird

/// `DELETE /api/v2/{sp}/sessions/{code}`: the device that created a session gives it up (the user cancelled the
/// login on the TV), so the code no longer leads to a provider picker or a login page.
extension EntitleService {
    func addSessionCancelRoutes(to router: Router<AppContext>) {
        router.delete("/api/v2/:sp/sessions/:code") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let session = try await self.liveSession(code: try context.parameters.require("code"), requestor: caller.requestor.id,
                                                     bucket: caller.device.value)
            // Only the client and device that created the session may cancel it; to anyone else it does not exist.
            guard session.clientId == caller.clientID, session.deviceId == caller.device.value else { throw APIError(.invalidCode) }
            guard session.status != .authenticated else {
                throw APIError(EnhancedError.invalidAuthenticationSession.with(details: "The session is already complete."))
            }
            _ = try await self.repository.cancelSession(code: session.code)
            return Response(status: .noContent)
        }
    }
}
