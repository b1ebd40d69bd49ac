import Foundation
import HummingbirdTesting
import Testing

@Test func zzDumpPages() async throws {
    try await Fixture.application().test(.router) { client in
        var browser = TestBrowser(client)
        let (_, page) = try await LoginFlowTests.openLogin(&browser, relayState: "r<&>\"'")
        try page.text.write(toFile: "/tmp/dm/login.html", atomically: true, encoding: .utf8)
        let failed = try await LoginFlowTests.submit(&browser, page: page, username: "<b>x</b>", password: "x")
        try failed.text.write(toFile: "/tmp/dm/failed.html", atomically: true, encoding: .utf8)
        let ok = try await LoginFlowTests.submit(&browser, page: failed, username: "alice", password: "alice-pass")
        try ok.text.write(toFile: "/tmp/dm/post.html", atomically: true, encoding: .utf8)
        try (await browser.get("\(Fixture.baseURL)/DemoCable/account")).text.write(toFile: "/tmp/dm/account.html", atomically: true, encoding: .utf8)
        let bad = try await browser.get(try Fixture.authnRequest(acs: "https://evil/<x>").redirectURL(relayState: nil, signer: Fixture.spIdentity))
        try bad.text.write(toFile: "/tmp/dm/error.html", atomically: true, encoding: .utf8)
        try (await browser.get("\(Fixture.baseURL)/DemoCable/saml/metadata")).text.write(toFile: "/tmp/dm/md.xml", atomically: true, encoding: .utf8)
    }
}
