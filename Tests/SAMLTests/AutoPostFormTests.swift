import Testing
@testable import SAML

@Suite struct AutoPostFormTests {
    @Test func escapesValuesAndSubmitsItself() {
        let html = autoPostForm(
            action: "https://sp.example.com/acs?a=1&b=\"2\"",
            fields: [("SAMLResponse", "PHNhbWw+"), ("RelayState", "<script>alert('x')</script>")])
        #expect(html.contains("action=\"https://sp.example.com/acs?a=1&amp;b=&quot;2&quot;\""))
        #expect(html.contains("name=\"SAMLResponse\" value=\"PHNhbWw+\""))
        #expect(html.contains("value=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;\""))
        #expect(!html.contains("<script>"))
        #expect(html.contains("<noscript>"))
        #expect(html.contains("method=\"post\""))
        #expect(html.contains("document.forms[0].submit()"))
    }
}
