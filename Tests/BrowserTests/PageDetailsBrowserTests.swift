import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// The details a newcomer notices on the service's pages, checked in headless Chromium: tab titles, the weight of the
/// Search button, distinct logos, the fallback for a provider without a logo, a wrong code that keeps the form, the
/// provider named on the success page, the hand-over page for an app's custom scheme, and the landing page.
/// Each check takes a screenshot (in `test-output/`).
@Suite(.serialized, .enabled(if: WebDriver.enabled))
struct PageDetailsBrowserTests {
    func withDriver(_ body: (LocalService, WebDriver) async throws -> Void) async throws {
        try await LocalService.run { service in
            let driver = try await WebDriver.start(http: service.httpClient)
            do {
                try await body(service, driver)
                await driver.quit()
            } catch {
                await driver.screenshot("failure-\(UUID().uuidString.prefix(8))")
                await driver.quit()
                throw error
            }
        }
    }

    @Test func activationPagesHaveTitlesAWrongCodeKeepsTheFormAndProvidersOutweighSearch() async throws {
        try await withDriver { service, driver in
            // A TempPass MVPD added without a logo.
            try await service.service.mvpds.saveTempPass(
                id: "NoLogoTV", displayName: "Nordic Light TV", logoURL: "", minutes: 10,
                requestors: ["REF"])
            try await driver.open(service.baseURL + "/activate")
            try await driver.waitForText("Activation code")
            #expect(try await driver.title() == "Activate your device – Entitle")

            try await driver.type("#code", "BBBBBBBB")
            try await driver.click("button[type=submit]")
            try await driver.waitForText("That code is not valid")
            await driver.screenshot("wrong-code-keeps-form")
            #expect(
                try await driver.script("return document.querySelector('#code') ? document.querySelector('#code').value : null") as? String
                    == "BBBBBBBB")
            #expect(
                try await driver.script("return document.querySelector('[role=alert]').textContent") as? String
                    == "That code is not valid. Check the code on your TV and enter it again.")
            #expect(try await driver.title() == "That code is not valid – Entitle")

            let tv = try await service.client()
            let code = try #require(try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self).code)
            try await driver.type("#code", code)
            try await driver.click("button[type=submit]")
            try await driver.waitForText("Choose your TV provider")
            #expect(try await driver.title() == "Choose your TV provider – Entitle")
            await driver.screenshot("provider-picker")

            // The Search button is a small secondary control: narrower and lighter than a provider.
            let search = try await driver.rect("#search")
            let provider = try await driver.rect("button[aria-label=\"Sign in with Demo Cable\"]")
            #expect(search.width * 3 < provider.width, "search \(search), provider \(provider)")
            #expect(
                try await driver.script("return getComputedStyle(document.querySelector('#search')).backgroundColor") as? String
                    == "rgb(255, 255, 255)")

            // "Free preview" and "Try it free" have logos of their own, and both load.
            let logos =
                try await driver.script(
                    """
                    return ['TempPass','TempPassPromo'].map(function(id){
                      var img=document.querySelector('input[value="'+id+'"]').parentNode.querySelector('img');
                      return img.getAttribute('src')+' '+(img.complete&&img.naturalWidth>0);});
                    """) as? [String] ?? []
            #expect(logos.count == 2 && logos[0] != logos[1], "\(logos)")
            #expect(logos.allSatisfy { $0.hasSuffix(" true") }, "\(logos)")

            // A provider without a logo shows its initials, not a broken image.
            let fallback =
                try await driver.script(
                    """
                    var b=document.querySelector('button[aria-label="Sign in with Nordic Light TV"]');
                    var i=b.querySelector('.initials');
                    return [b.querySelectorAll('img').length, i.textContent, i.getBoundingClientRect().width > 0];
                    """) as? [Any] ?? []
            #expect(fallback.count == 3)
            #expect(fallback.first as? Int == 0)
            #expect(fallback.dropFirst().first as? String == "NL")
            #expect(fallback.last as? Bool == true)
        }
    }

    @Test func theSuccessPagesNameTheProvider() async throws {
        try await withDriver { service, driver in
            // Second screen: "Your Demo Cable account is now linked."
            let tv = try await service.client()
            let code = try #require(try await tv.createSession(mvpd: nil, redirectURL: nil).decode(SessionResponse.self).code)
            try await driver.open(service.baseURL + "/activate?code=\(code)")
            try await driver.waitForText("Activation code")
            try await driver.click("button[type=submit]")
            try await driver.waitForText("Choose your TV provider")
            try await driver.click("button[aria-label=\"Sign in with Demo Cable\"]")
            try await Self.signIn(driver)
            try await driver.waitForText("Your Demo Cable account is now linked.")
            #expect(try await driver.title() == "You are signed in with Demo Cable – Entitle")
            await driver.screenshot("second-screen-linked")

            // An app's custom scheme: a page that says so, then hands over to adobepass://ios.app.
            let app = try await service.client(redirectURI: "adobepass://ios.app")
            let session = try await app.createSession(mvpd: "DemoCable", redirectURL: "adobepass://ios.app").decode(SessionResponse.self)
            try await driver.open(service.baseURL + (session.url ?? ""))
            // The DemoMVPD remembers alice from the first sign-in (single sign-on): no login form this time.
            try await driver.waitForText("Signed in with Demo Cable — return to your app")
            let redirect = try await driver.waitForRequest(prefix: "adobepass://ios.app")
            #expect(redirect.hasPrefix("adobepass://ios.app"))
            #expect(
                try await driver.script("return document.querySelector('#return-to-app').getAttribute('href')") as? String == "adobepass://ios.app")
            await driver.screenshot("custom-scheme-return-to-app")
        }
    }

    @Test func theBaseURLIsALandingPage() async throws {
        try await withDriver { service, driver in
            try await driver.open(service.baseURL + "/")
            try await driver.waitForText("Entitle is running here")
            #expect(try await driver.title() == "Entitle service")
            let links =
                try await driver.script("return Array.from(document.querySelectorAll('#links a')).map(function(a){return a.getAttribute('href')})")
                as? [String] ?? []
            #expect(links.contains("/activate") && links.contains("/openapi.json") && links.contains("/demo-mvpd/DemoCable/saml/metadata"))
            await driver.screenshot("landing-page")
        }
    }

    static func signIn(_ driver: WebDriver) async throws {
        try await driver.waitForText("id=\"username\"")
        try await driver.type("#username", "alice")
        try await driver.type("#password", "alice-pass")
        try await driver.click("#sign-in")
    }
}

extension WebDriver {
    /// The document's title.
    func title() async throws -> String { try await command(.GET, "/title") as? String ?? "" }

    /// Runs `script` (a function body) in the page and returns its value.
    func script(_ script: String) async throws -> Any? { try await command(.POST, "/execute/sync", ["script": script, "args": []]) }

    /// The size of an element, CSS pixels.
    func rect(_ css: String) async throws -> (width: Double, height: Double) {
        let value = try await command(.GET, "/element/\(try await element(css))/rect") as? [String: Any] ?? [:]
        return ((value["width"] as? NSNumber)?.doubleValue ?? 0, (value["height"] as? NSNumber)?.doubleValue ?? 0)
    }
}
