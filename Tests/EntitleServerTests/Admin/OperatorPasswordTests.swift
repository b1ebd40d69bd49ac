@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Testing

/// Operator password hashes: scrypt at N = 2^16, r = 8, p = 1 by default (the test harness's services use 2^10 for
/// speed; the cost is stored in each hash, so either verifies), a wrong password or a malformed hash never matches.
@Suite struct OperatorPasswordTests {
    @Test func theDefaultCostIsTwoToTheSixteenAndEveryCostVerifies() throws {
        let production = try OperatorPassword.hash("correct horse battery")
        #expect(production.hasPrefix("scrypt$16$8$1$"))
        #expect(OperatorPassword.verify("correct horse battery", hash: production))
        #expect(!OperatorPassword.verify("correct horse batterY", hash: production))
        let cheap = try OperatorPassword.hash("correct horse battery", logRounds: 10)
        #expect(cheap.hasPrefix("scrypt$10$8$1$"))
        #expect(OperatorPassword.verify("correct horse battery", hash: cheap))
        #expect(!OperatorPassword.verify("correct horse battery", hash: "scrypt$16$8$1$AAAA"))
        #expect(!OperatorPassword.verify("correct horse battery", hash: ""))
        #expect(throws: OperatorPassword.Refused.self) { try OperatorPassword.hash("short") }
        #expect(OperatorPassword.decoy().hasPrefix("scrypt$16$"))
    }
}
