import Testing
@testable import AccessEnabler

@Suite struct ExternalURLMatcherTests {
    let matcher = ExternalURLMatcher(customRedirects: ["entitle-demo://callback"])

    @Test(arguments: [
        "adobepass://ios.app", "adobepass://ios.app/", "ADOBEPASS://IOS.APP", "adobepass://ios.app?x=1",
        "http://adobepass.ios.app/", "https://adobepass.ios.app/done", "entitle-demo://callback",
        "entitle-demo://callback/?code=1",
    ])
    func accepts(_ url: String) { #expect(matcher.matches(url)) }

    @Test(arguments: [
        "https://example.com", "adobepass://android.app", "adobepass://ios.app/other", "entitle-demo://other",
        "", "not a url", "adobepass:ios.app",
    ])
    func rejects(_ url: String) { #expect(!matcher.matches(url)) }

    @Test func readsErrorParameter() {
        #expect(ExternalURLMatcher.errorParameter("adobepass://ios.app?error=access_denied") == "access_denied")
        #expect(ExternalURLMatcher.errorParameter("adobepass://ios.app#error=x") == "x")
        #expect(ExternalURLMatcher.errorParameter("adobepass://ios.app") == nil)
    }
}
