import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Testing

/// The decision path's hand-written shortcuts answer exactly as the general code they stand in for.
@Suite struct HotPathEquivalenceTests {
    @Test func decisionsPathIsRecognisedByteByByte() {
        for path in ["/api/v2/REF/decisions/authorize/DemoCable", "/api/v2/REF/decisions/preauthorize/X", "/api/v2/REF/decisions"] {
            #expect(NULRefusalMiddleware.isDecisions(path: path), "\(path)")
        }
        for path in [
            "/api/v2/REF/decisionsX/authorize/A", "/api/v2/REF/profiles", "/api/v2/decisions", "/api/v1/REF/decisions/authorize/A",
            "/api/v2/", "/", "", "/api/v2/REF/decision", "/api/v2/REF/sessions/decisions",
        ] {
            #expect(!NULRefusalMiddleware.isDecisions(path: path), "\(path)")
        }
    }

    /// The catalog's lock-free shortcut says "fresh" exactly while the last version read is younger than the refresh
    /// interval: never before the first read, after a failed read, or with strict checking. (Intervals of 1.5 s, so a
    /// loaded machine cannot let one pass between two lines.)
    @Test func catalogFreshnessFollowsTheLastVersionRead() async throws {
        let cache = CatalogCache(refreshInterval: .milliseconds(1500))
        #expect(!cache.isFresh())
        let first = cache.versionCheckDue()
        #expect(first.due)
        cache.versionRead(nil, at: first.startedAt)
        #expect(!cache.isFresh())
        let second = cache.versionCheckDue()
        cache.versionRead(7, at: second.startedAt)
        #expect(cache.isFresh())
        #expect(!cache.versionCheckDue().due)
        try await Task.sleep(for: .milliseconds(1700))
        #expect(!cache.isFresh())
        #expect(cache.versionCheckDue().due)

        let strict = CatalogCache(refreshInterval: .zero)
        let check = strict.versionCheckDue()
        strict.versionRead(7, at: check.startedAt)
        #expect(!strict.isFresh())
    }

    /// The profile cache's one-look shortcut answers only while the polled feed's last poll is recent (or the notified
    /// feed is connected), and otherwise sends the reader through the poll.
    @Test func cachedProfilesAreUsedWithoutAPollOnlyWhileTheFeedIsCurrent() async throws {
        let key = ProfileCache.DeviceKey(requestor: "REF", client: "client", device: "device")
        let profile = ProfileChecksTests.profile(mvpd: "DemoCable", notBefore: 0, seconds: 3600)
        let polled = ProfileCache(feed: .polled, bound: .milliseconds(1500))
        polled.store(key, [profile], generation: polled.lookup(key).generation)
        #expect(polled.currentProfiles(key) == nil, "never polled")
        let due = try #require(polled.pollDue())
        polled.pollRead([], lastSequence: 1, startedAt: due.startedAt)
        polled.store(key, [profile], generation: polled.lookup(key).generation)
        #expect(polled.currentProfiles(key)?.first?.mvpdId == "DemoCable")
        #expect(polled.currentProfiles(ProfileCache.DeviceKey(requestor: "REF", client: "client", device: "other")) == nil)
        try await Task.sleep(for: .milliseconds(1700))
        #expect(polled.currentProfiles(key) == nil, "the last poll is older than the bound")

        let notified = ProfileCache(feed: .notified)
        notified.setListening(true)
        notified.store(key, [profile], generation: notified.lookup(key).generation)
        #expect(notified.currentProfiles(key)?.first?.mvpdId == "DemoCable")
        notified.setListening(false)
        #expect(notified.currentProfiles(key) == nil)
    }

    @Test func asciiPrefixesAreComparedWithoutCaseAsALowercasedCopyWould() {
        let prefix: StaticString = "application/x-www-form-urlencoded"
        for text in [
            "application/x-www-form-urlencoded", "Application/X-WWW-Form-URLEncoded; charset=utf-8", "application/json", "application/x-www",
            "", "APPLICATION/X-WWW-FORM-URLENCODED", "\u{C9}pplication/x-www-form-urlencoded", "application/x-www-form-urlencodeD",
        ] {
            #expect(text.hasASCIIPrefixIgnoringCase(prefix) == text.lowercased().hasPrefix("\(prefix)"), "\(text)")
        }
        #expect("Bearer abc".hasASCIIPrefixIgnoringCase("bearer "))
        #expect(!"Bearer".hasASCIIPrefixIgnoringCase("bearer "))
        #expect(!"Basic abc".hasASCIIPrefixIgnoringCase("bearer "))
    }

    @Test func plainASCIIResourceIdsReadAsTheGeneralReadingDoes() throws {
        for raw in ["news", "a b", "CNN-HD_2", "x", String(repeating: "a", count: ProtectedResource.maximumLength)] {
            #expect(ProtectedResource.isPlainASCIIId(raw))
            let resource = try ProtectedResource(parsing: raw)
            #expect(resource.channel == raw && resource.raw == raw && resource.itemTitle == nil && resource.rating == nil)
        }
        // Not the shortcut: the general reading decides (trims, refuses, or reads markup).
        for raw in [
            " news", "news ", "", "a>b", "<rss/>", "caf\u{E9}", "a\u{7F}", "a\tb", String(repeating: "a", count: ProtectedResource.maximumLength + 1),
        ] {
            #expect(!ProtectedResource.isPlainASCIIId(raw), "\(raw)")
        }
        #expect(try ProtectedResource(parsing: " news ").channel == "news")
        #expect(throws: EnhancedError.self) { try ProtectedResource(parsing: "a>b") }
    }

    /// The verified-token cache hashes only a token's tail, and still tells apart tokens that share it.
    @Test func verifiedTokensAreFoundByTheirWholeText() {
        let cache = VerifiedTokenCache()
        let tail = "." + String(repeating: "s", count: 2 * VerifiedTokenCache.TokenKey.hashedBytes)
        func claims(_ id: String) -> AccessTokenClaims {
            AccessTokenClaims(iss: "i", sub: id, requestorID: "REF", scopes: "", iat: 0, nbf: 0, exp: 1, jti: id)
        }
        cache.remember("header.one" + tail, claims: claims("one"), generation: 1)
        cache.remember("header.two" + tail, claims: claims("two"), generation: 1)
        #expect(cache.claims(for: "header.one" + tail, generation: 1)?.sub == "one")
        #expect(cache.claims(for: "header.two" + tail, generation: 1)?.sub == "two")
        #expect(cache.claims(for: "header.three" + tail, generation: 1) == nil)
        #expect(cache.claims(for: "header.one" + tail, generation: 2) == nil)
        #expect(cache.claims(for: "short", generation: 1) == nil)
    }

    @Test func escapingIsNeededExactlyForQuotesBackslashesAndControls() {
        #expect(!FastJSON.needsEscaping("PHNpZ25hdHVyZUluZm8+Li4uPC9zaWduYXR1cmVJbmZvPg=="))
        #expect(!FastJSON.needsEscaping("caf\u{E9} / ok"))
        for value in ["a\"b", "a\\b", "a\nb", "\u{1}"] { #expect(FastJSON.needsEscaping(value), "\(value)") }
        // The pass is vectorized: a byte that needs escaping is found at every position of a long value, inside the
        // vector blocks and in the tail after them; the bytes next to the ones that count (0x20, 0x21, 0x23, 0x5B,
        // 0x5D, 0x7F, 0x80 and up) are found nowhere.
        let plain = String(repeating: "A", count: 97)
        #expect(!FastJSON.needsEscaping(plain + "\u{20}!#[]\u{7F}\u{80}é"))
        for position in 0..<plain.count {
            for special in ["\"", "\\", "\u{1F}", "\u{0}"] {
                var value = plain
                value.replaceSubrange(
                    value.index(value.startIndex, offsetBy: position)...value.index(value.startIndex, offsetBy: position), with: special)
                #expect(FastJSON.needsEscaping(value), "\(special.unicodeScalars.first!.value) at \(position)")
            }
        }
    }

    /// The ESM counters reached through ``ESMSeries`` carry the same names, labels and values as before, bounded labels
    /// included, and a series made again after the cache is dropped counts on from where it was.
    @Test func esmSeriesCountIntoTheSameMetrics() {
        let metrics = ServiceMetrics()
        let key = ReportKey(requestor: "REF", mvpd: "DemoCable", platform: "iOS", app: "app")
        let granted = Self.decision(authorized: true)
        let denied = Self.decision(error: .authorizationDeniedByMVPD)
        let failed = Self.decision(error: .internalServerError)
        var withToken = granted
        withToken.token = MediaTokenInfo(notBefore: 0, notAfter: 1, serializedToken: "token")
        metrics.recordDecisions([granted, granted, denied], issueTokens: false, deliversTokens: true, key: key, at: 0)
        metrics.recordDecisions([granted], issueTokens: false, deliversTokens: true, key: key, at: 0)
        metrics.recordDecisions([withToken, denied], issueTokens: true, deliversTokens: true, key: key, at: 0)
        // REST v1 authorize keeps only the decision: its token is not counted as delivered.
        metrics.recordDecisions([withToken, failed], issueTokens: true, deliversTokens: false, key: key, at: 0)
        metrics.recordDecisions(
            [granted], issueTokens: true, deliversTokens: true, key: ReportKey(requestor: "OTHER", mvpd: "DemoCable", platform: "web", app: ""),
            at: 0)
        metrics.recordSignIn(.success, key: key, at: 0)
        let text = metrics.render()
        let labels = #"mvpd="DemoCable",platform="iOS",requestor="REF""#
        for line in [
            #"entitle_preauthorizations_total{\#(labels)} 2"#,
            #"entitle_preauthorized_resources_total{\#(labels),outcome="granted"} 3"#,
            #"entitle_preauthorized_resources_total{\#(labels),outcome="denied"} 1"#,
            #"entitle_authorizations_total{\#(labels),outcome="granted"} 2"#,
            #"entitle_authorizations_total{\#(labels),outcome="denied"} 1"#,
            #"entitle_authorizations_total{\#(labels),outcome="failed"} 1"#,
            #"entitle_media_tokens_total{\#(labels)} 1"#,
            #"entitle_signin_successes_total{\#(labels)} 1"#,
            #"entitle_decisions_total{kind="authorize",mvpd="DemoCable",outcome="authorized"} 3"#,
            #"entitle_decisions_total{kind="authorize",mvpd="DemoCable",outcome="denied"} 1"#,
            #"entitle_decisions_total{kind="authorize",mvpd="DemoCable",outcome="error"} 1"#,
            #"entitle_decisions_total{kind="preauthorize",mvpd="DemoCable",outcome="authorized"} 3"#,
            #"entitle_decisions_total{kind="preauthorize",mvpd="DemoCable",outcome="denied"} 1"#,
        ] {
            #expect(Self.sortedLabels(text).contains(Self.sortedLabels(line)), "\(line)\n\(text)")
        }
    }

    @Test func esmSeriesCacheIsBoundedAndLosesNoCount() {
        let metrics = ServiceMetrics()
        let cache = ESMSeriesCache(labels: BoundedLabels(), handles: metrics.handles, capacity: 2)
        for _ in 0..<3 {
            for requestor in ["A", "B", "C"] {
                cache.series(ReportKey(requestor: requestor, mvpd: "M", platform: "web", app: "")).increment(.preauthorizations)
            }
        }
        let text = Self.sortedLabels(metrics.render())
        for requestor in ["A", "B", "C"] {
            #expect(text.contains(Self.sortedLabels(#"entitle_preauthorizations_total{mvpd="M",platform="web",requestor="\#(requestor)"} 3"#)))
        }
    }

    /// Each series line with its labels in name order, so the comparison does not depend on the registry's order.
    /// A decision of DemoCable for REF: authorized, or denied with `error`.
    static func decision(authorized: Bool = false, error: EnhancedError? = nil) -> Decision {
        var decision = Decision(resource: "news", serviceProvider: "REF", mvpd: "DemoCable", source: .mvpd, authorized: authorized)
        decision.error = error
        return decision
    }

    static func sortedLabels(_ text: String) -> String {
        text.split(separator: "\n").map { line -> String in
            guard let open = line.firstIndex(of: "{"), let close = line.firstIndex(of: "}") else { return String(line) }
            let labels = line[line.index(after: open)..<close].split(separator: ",").sorted().joined(separator: ",")
            return line[..<open] + "{" + labels + "}" + line[line.index(after: close)...]
        }.joined(separator: "\n")
    }
}
