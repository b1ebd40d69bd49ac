import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// The pysaml2 IdP (`scripts/pysaml2-idp`), an IdP this project did not write, as a process on loopback for one test:
/// started against the service's SP metadata, stopped by ``stop()``; signs its users in through the generic web flow.
struct Pysaml2IdP {
    /// Whether the tests that need it run: with xmlsec1 installed, and always in CI.
    static var available: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/xmlsec1") || ProcessInfo.processInfo.environment["CI"] == "true"
    }

    let folder: URL
    let process: DeviceProcess
    /// The IdP's SAML metadata.
    let metadata: String
    /// Where it listens (`http://127.0.0.1:PORT`).
    var baseURL = ""

    /// Starts the IdP for `local`'s SP and moves the service's test clock to the real time (pysaml2 stamps its
    /// assertions with it; the clock stood still while the IdP started).
    /// With `proxy` it plays a proxy MVPD: it answers in the name of the proxied MVPD the AuthnRequest's Scoping names.
    static func start(for local: LocalService, proxy: Bool = false) async throws -> Pysaml2IdP {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("entitle-pysaml2-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let spMetadata = folder.appendingPathComponent("sp-metadata.xml")
        try Data(try await ProductionOnboardingTests.fetch(local.httpClient, local.baseURL + "/sp/saml/metadata").text.utf8).write(to: spMetadata)
        let port = try freePort()
        let process = try DeviceProcess(
            binary: URL(fileURLWithPath: "/bin/bash"),
            arguments: [
                DeviceCommandTests.packageRoot.appendingPathComponent("Tests/Support/pysaml2-idp/run.sh").path, "--port", "\(port)",
                "--sp-metadata", spMetadata.path, "--workdir", folder.path,
            ] + (proxy ? ["--proxy"] : []), directory: folder)
        do {
            _ = try await process.waitForOutput(containing: "ready", timeout: 300)
            local.clock.advance(by: max(0, Date().timeIntervalSince(local.clock.now())))
            let metadata = try await ProductionOnboardingTests.fetch(local.httpClient, "http://127.0.0.1:\(port)/idp/metadata").text
            return Pysaml2IdP(folder: folder, process: process, metadata: metadata, baseURL: "http://127.0.0.1:\(port)")
        } catch {
            process.stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Stops the process and removes its folder.
    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Signs `username` in at the IdP for the session `created` (REST v2), through the login form and the auto-post
    /// form back to the service, which sends the browser on to the app.
    /// `extra` fields go with the login form (such as a proxy's `as_provider`).
    static func signIn(
        _ local: LocalService, session created: SessionResponse, username: String, password: String, extra: [(String, String)] = []
    ) async throws {
        let consumed = try await answer(local, session: created, username: username, password: password, extra: extra)
        guard case .external = consumed else { throw BrowserError("not redirected to the app: \(consumed)") }
    }

    /// Signs `username` in at the IdP and posts its SAML answer to the service: what the service answered.
    static func answer(
        _ local: LocalService, session created: SessionResponse, username: String, password: String, extra: [(String, String)] = []
    ) async throws -> BrowserClient.Outcome {
        let browser = local.browser()
        guard case .page(var page) = try await browser.get(local.baseURL + (try #require(created.url))) else {
            throw BrowserError("no page at the authentication URL")
        }
        if let post = page.forms.first(where: { $0["SAMLRequest"] != nil && !$0.fields.contains { $0.0 == "password" } }) {
            guard case .page(let form) = try await browser.submit(post, from: page) else { throw BrowserError("no login page") }
            page = form
        }
        var login = try #require(page.forms.first { $0.fields.contains { $0.0 == "password" } }, "\(page.body)")
        login.set("username", username)
        login.set("password", password)
        for (name, value) in extra { login.set(name, value) }
        guard case .page(let answer) = try await browser.submit(login, from: page),
            let samlForm = answer.forms.first(where: { $0["SAMLResponse"] != nil })
        else { throw BrowserError("no SAML answer from the IdP") }
        return try await browser.submit(samlForm, from: answer)
    }
}
