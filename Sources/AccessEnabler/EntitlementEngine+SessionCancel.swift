import EntitleCore
import Foundation

extension EntitlementEngine {
    /// A second-screen login stopped before it completed (the app cancelled it, or a new login replaced it): tell the
    /// service (`DELETE /api/v2/{sp}/sessions/{code}`), so the code shown on the TV no longer leads to a provider
    /// picker or a login page. Best effort: a failure leaves the code to expire by itself.
    func abandonSession(code: String) {
        let client = client(for: provider(for: nil))
        let headers = commonHeaders()
        let path = ["api", "v2", requestorID, "sessions", code]
        sessionAbandonment = Task {
            _ = try? await client.send(APICall(method: "DELETE", path: path), headers: headers)
        }
    }

    /// Delivers the replies of a cancelled login once the service has heard of the cancellation, so a process that
    /// exits right after (`entitle device login` on Ctrl-C) does not leave a live code behind.
    func deliverAfterAbandonment(_ deliver: @escaping @Sendable () -> Void) {
        guard let pending = sessionAbandonment else { return deliver() }
        sessionAbandonment = nil
        Task {
            await pending.value
            deliver()
        }
    }
}
