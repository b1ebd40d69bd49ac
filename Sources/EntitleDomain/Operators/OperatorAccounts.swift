import EntitleModel
import EntitleStorage
import Foundation
import NIOPosix

/// An authenticated operator of the admin API.
package struct OperatorIdentity: Sendable, Equatable {
    /// Login name.
    package var username: String
    /// Role.
    package var role: OperatorRole
    /// The session's CSRF token (required with a session cookie on every change).
    package var csrfToken: String
    /// SHA-256 of the session token (to end the session).
    package var tokenHash: String
    /// What the operator is limited to (unscoped by default).
    package var scope = OperatorScope()
    /// How the changes log names this operator.
    package var actor: String { "operator:" + username }
    /// What the operations let this operator reach (``OperatorReach/current`` while it acts).
    package var reach: OperatorReach { OperatorReach(username: username, role: role, scope: scope) }

    /// Creates the value from each of its stored properties.
    package init(username: String, role: OperatorRole, csrfToken: String, tokenHash: String) {
        self.username = username
        self.role = role
        self.csrfToken = csrfToken
        self.tokenHash = tokenHash
    }
}

/// Operator accounts and their sessions: creation, sign-in with throttling, session lookup with idle and absolute
/// expiry, sign-out.
package struct OperatorAccounts: Sendable {
    /// Accounts and console sessions.
    package let store: OperatorStore
    package let clock: any ServiceClock
    /// The limits on sign-in attempts (counted in the database).
    package let limits: SignInLimits
    /// A session ends after this long without a request.
    package var idleTimeout: Duration = .seconds(30 * 60)
    /// A session ends this long after sign-in, whatever its use.
    package var absoluteTimeout: Duration = .seconds(12 * 3600)

    /// log2 of scrypt's N for new password hashes (stored in each hash, so existing ones keep theirs).
    package let passwordLogRounds: Int
    /// What an unknown name is checked against: made by the first sign-in, whatever its name.
    package var decoy: String { OperatorPassword.decoy(logRounds: passwordLogRounds) }

    /// Creates the accounts service; `passwordLogRounds` below the default is for test harnesses only.
    package init(
        store: OperatorStore, clock: any ServiceClock, passwordLogRounds: Int = OperatorPassword.logRounds
    ) {
        self.store = store
        self.clock = clock
        self.limits = SignInLimits(store: store)
        self.passwordLogRounds = passwordLogRounds
    }

    /// Creates an account; refuses a malformed or taken name, an unknown role and a short password.
    package func add(username: String, role: OperatorRole, password: String) async throws -> OperatorRecord {
        try Self.checkUsername(username)
        guard role.isKnown else {
            throw AdminError("invalid_role", "role \(role.rawValue): use read-only or read-write")
        }
        let hash = try await Self.hashOffLoop(password, logRounds: passwordLogRounds)
        let record = OperatorRecord(
            username: username, passwordHash: hash, role: role.rawValue, disabled: 0, createdAt: clock.nowMilliseconds())
        guard try await store.insertOperator(record) else {
            throw AdminError("operator_exists", "operator \(username) exists", status: 409)
        }
        return record
    }

    /// Disables or enables an account (a disabled account's sessions end at once). Returns the account before.
    package func setDisabled(username: String, _ disabled: Bool) async throws -> OperatorRecord {
        let before = try await existing(username)
        var after = before
        after.disabled = disabled ? 1 : 0
        _ = try await store.updateOperator(after)
        return before
    }

    /// Sets a new password (the account's sessions end). Returns the account before.
    package func setPassword(username: String, password: String) async throws -> OperatorRecord {
        let before = try await existing(username)
        var after = before
        after.passwordHash = try await Self.hashOffLoop(password, logRounds: passwordLogRounds)
        _ = try await store.updateOperator(after)
        try await store.deleteOperatorSessions(username: username)
        return before
    }

    /// Lifts every sign-in lock of an account (its counted failures from every address); returns how many were counted.
    package func unlock(username: String) async throws -> Int {
        _ = try await existing(username)
        return try await limits.unlock(username: username)
    }

    /// Removes an account and its sessions. Returns the account before.
    package func remove(username: String) async throws -> OperatorRecord {
        let before = try await existing(username)
        _ = try await store.deleteOperator(username: username)
        return before
    }

    /// Signs an operator in: returns the session token (shown once) and the identity. Each attempt is counted before
    /// its password is checked (``SignInLimits``); an unknown name, a wrong password and a disabled account get the same
    /// answer.
    package func signIn(username: String, password: String, address: String?) async throws -> (token: String, identity: OperatorIdentity) {
        let now = clock.nowMilliseconds()
        let attemptID: String
        switch try await limits.admit(username: username, address: address, now: now) {
        case .refused(let wait):
            throw AdminError("too_many_attempts", "too many failed sign-ins; try again later", status: 429, retryAfter: wait)
        case .admitted(let id):
            attemptID = id
        }
        let account = try await store.operatorAccount(username: username)
        let stored = account?.passwordHash
        let matches = try await Self.passwordPool.runIfActive { [passwordLogRounds] in
            // The decoy is made here for every name, known or not (once per process, then kept), so the first
            // sign-in after a start costs the same whether the name exists or not.
            let decoy = OperatorPassword.decoy(logRounds: passwordLogRounds)
            return OperatorPassword.verify(password, hash: stored ?? decoy)
        }
        guard let account, matches, account.disabled == 0 else {
            throw AdminError("invalid_credentials", "unknown operator or wrong password", status: 401)
        }
        try await limits.succeeded(attemptID, username: username, address: address)
        let token = Secrets.randomToken(bytes: 32)
        let session = OperatorSessionRecord(
            tokenHash: Secrets.sha256Hex(token), username: account.username, csrfToken: Secrets.randomToken(bytes: 24), createdAt: now,
            lastSeenAt: now)
        try await store.insertOperatorSession(session)
        var identity = OperatorIdentity(
            username: account.username, role: OperatorRole(rawValue: account.role), csrfToken: session.csrfToken, tokenHash: session.tokenHash)
        identity.scope = try await store.operatorScope(username: account.username)
        return (token, identity)
    }

    /// The operator of a session token, or nil when the token is unknown, expired (idle or absolute), or its account is
    /// disabled or gone. Records the request for idle expiry.
    package func identity(token: String) async throws -> OperatorIdentity? {
        let tokenHash = Secrets.sha256Hex(token)
        guard let session = try await store.operatorSession(tokenHash: tokenHash) else { return nil }
        let now = clock.nowMilliseconds()
        guard now - session.lastSeenAt <= idleTimeout.milliseconds, now - session.createdAt <= absoluteTimeout.milliseconds,
            let account = try await store.operatorAccount(username: session.username), account.disabled == 0
        else {
            try await store.deleteOperatorSession(tokenHash: tokenHash)
            return nil
        }
        if now - session.lastSeenAt > 10_000 { try await store.touchOperatorSession(tokenHash: tokenHash, at: now) }
        var identity = OperatorIdentity(
            username: account.username, role: OperatorRole(rawValue: account.role), csrfToken: session.csrfToken, tokenHash: tokenHash)
        identity.scope = try await store.operatorScope(username: account.username)
        return identity
    }

    /// Ends a session.
    package func signOut(_ identity: OperatorIdentity) async throws {
        try await store.deleteOperatorSession(tokenHash: identity.tokenHash)
    }

    private func existing(_ username: String) async throws -> OperatorRecord {
        guard let account = try await store.operatorAccount(username: username) else {
            throw AdminError("unknown_operator", "no operator \(username) (list them with `entitle admin operator list`)", status: 404)
        }
        return account
    }

    package static func checkUsername(_ username: String) throws {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.@")
        guard !username.isEmpty, username.count <= 64, username.unicodeScalars.allSatisfy(allowed.contains) else {
            throw AdminError("invalid_username", "username \"\(username)\": use 1-64 letters, digits, _, -, . or @")
        }
    }

    /// The two threads that hash and check operator passwords (scrypt: 64 MiB and a good part of a second each).
    /// Not `NIOThreadPool.singleton`: the database drivers do their blocking work there, so sign-ins (or a flood of
    /// wrong passwords) would stall every query of the process. One thread also bounds the memory and CPU that sign-ins
    /// can take; they queue instead.
    package static let passwordPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 2)
        pool.start()
        return pool
    }()

    private static func hashOffLoop(_ password: String, logRounds: Int) async throws -> String {
        do { return try await Self.passwordPool.runIfActive { try OperatorPassword.hash(password, logRounds: logRounds) } } catch let refused
            as OperatorPassword.Refused
        {
            throw AdminError("invalid_password", refused.description)
        }
    }
}

extension Duration {
    /// Whole milliseconds.
    package var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
