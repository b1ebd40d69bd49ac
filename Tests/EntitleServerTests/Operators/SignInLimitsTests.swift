import EntitleCore
@testable import EntitleDomain
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// Operator sign-in limits (``SignInLimits``) on a migrated database of each engine and a manual clock, without a
/// service: attempts counted before the password is checked, per account and address, shared by instances.
@Suite struct SignInLimitsTests {
    static let password = "correct horse battery"

    /// Two instances' accounts services on one database (as two `serve` processes), an operator `ops` on it.
    static func withAccounts(_ body: (OperatorAccounts, OperatorAccounts, ManualClock) async throws -> Void) async throws {
        try await ScratchEngines.withEach { engine in
            let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
            let first = OperatorAccounts(store: Repository(sql: engine.sql).operatorStore, clock: clock, passwordLogRounds: 10)
            let second = OperatorAccounts(store: Repository(sql: engine.sql).operatorStore, clock: clock, passwordLogRounds: 10)
            _ = try await first.add(username: "ops", role: .readWrite, password: password)
            try await body(first, second, clock)
        }
    }

    /// The error code of a sign-in ("ok" when it succeeds).
    static func outcome(_ accounts: OperatorAccounts, _ password: String, from address: String?, as username: String = "ops") async -> String {
        do {
            _ = try await accounts.signIn(username: username, password: password, address: address)
            return "ok"
        } catch let error as AdminError {
            return error.code
        } catch {
            return "\(error)"
        }
    }

    @Test func simultaneousGuessesAreCountedBeforeAnyIsChecked() async throws {
        try await Self.withAccounts { accounts, _, _ in
            // Sixteen wrong guesses at once from one address: at most five are checked (each counts after its own record,
            // so the sixth recorded and later see more than five; in a burst even the first five may see the others and
            // be refused), the rest refused unchecked.
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<16 { group.addTask { await Self.outcome(accounts, "wrong password!", from: "198.51.100.7") } }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            let checked = outcomes.filter { $0 == "invalid_credentials" }.count
            #expect(checked <= 5, "\(outcomes)")
            #expect(outcomes.filter { $0 == "too_many_attempts" }.count == 16 - checked, "\(outcomes)")
            // The right password after them, from the same address, is refused too.
            #expect(await Self.outcome(accounts, Self.password, from: "198.51.100.7") == "too_many_attempts")
        }
    }

    @Test func tenWrongAndTheRightOneTogetherDoNotLetTheRightOneThrough() async throws {
        try await Self.withAccounts { accounts, _, _ in
            for _ in 0..<10 { _ = await Self.outcome(accounts, "wrong password!", from: "198.51.100.8") }
            #expect(await Self.outcome(accounts, Self.password, from: "198.51.100.8") == "too_many_attempts")
        }
    }

    @Test func anAttackerElsewhereCannotLockTheOperatorOut() async throws {
        try await Self.withAccounts { accounts, other, clock in
            for _ in 0..<8 { _ = await Self.outcome(accounts, "wrong password!", from: "203.0.113.66") }
            #expect(await Self.outcome(accounts, Self.password, from: "203.0.113.66") == "too_many_attempts")
            // The operator's own address is not locked, on either instance.
            #expect(await Self.outcome(other, Self.password, from: "192.0.2.10") == "ok")
            // The attacker's lock holds on the other instance too, and after a restart (a new accounts service).
            #expect(await Self.outcome(other, Self.password, from: "203.0.113.66") == "too_many_attempts")
            let restarted = OperatorAccounts(store: accounts.store, clock: clock, passwordLogRounds: 10)
            #expect(await Self.outcome(restarted, Self.password, from: "203.0.113.66") == "too_many_attempts")
            // It ends with the window.
            clock.advance(by: 15 * 60 + 1)
            #expect(await Self.outcome(accounts, Self.password, from: "203.0.113.66") == "ok")
        }
    }

    @Test func oneAddressIsLimitedAcrossAccounts() async throws {
        try await Self.withAccounts { accounts, _, _ in
            var outcomes: [String] = []
            for index in 0..<22 { outcomes.append(await Self.outcome(accounts, "wrong password!", from: "198.51.100.9", as: "user\(index)")) }
            #expect(outcomes.prefix(20).allSatisfy { $0 == "invalid_credentials" }, "\(outcomes)")
            #expect(outcomes.suffix(2).allSatisfy { $0 == "too_many_attempts" }, "\(outcomes)")
            #expect(await Self.outcome(accounts, Self.password, from: "198.51.100.9") == "too_many_attempts")
        }
    }

    @Test func unlockLiftsEveryLockOfTheAccount() async throws {
        try await Self.withAccounts { accounts, other, _ in
            for _ in 0..<6 { _ = await Self.outcome(accounts, "wrong password!", from: "203.0.113.67") }
            #expect(await Self.outcome(accounts, Self.password, from: "203.0.113.67") == "too_many_attempts")
            let forgotten = try await other.unlock(username: "ops")
            #expect(forgotten >= 6)
            #expect(await Self.outcome(accounts, Self.password, from: "203.0.113.67") == "ok")
            await #expect(throws: AdminError.self) { _ = try await accounts.unlock(username: "nobody") }
        }
    }

    @Test func aSuccessForgetsOnlyItsOwnAddressFailures() async throws {
        try await Self.withAccounts { accounts, _, _ in
            for _ in 0..<4 { _ = await Self.outcome(accounts, "wrong password!", from: "203.0.113.68") }
            for _ in 0..<4 { _ = await Self.outcome(accounts, "wrong password!", from: "192.0.2.11") }
            #expect(await Self.outcome(accounts, Self.password, from: "192.0.2.11") == "ok")
            // 192.0.2.11 starts again from nothing; 203.0.113.68 still has its four.
            for _ in 0..<4 { #expect(await Self.outcome(accounts, "wrong password!", from: "192.0.2.11") == "invalid_credentials") }
            #expect(await Self.outcome(accounts, "wrong password!", from: "203.0.113.68") == "invalid_credentials")
            #expect(await Self.outcome(accounts, Self.password, from: "203.0.113.68") == "too_many_attempts")
        }
    }
}
