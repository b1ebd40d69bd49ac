import EntitleCore
import Testing

/// The strict parser of redirect targets taken from requests: what it refuses, and the form it re-serializes.
@Suite struct RedirectURLTests {
    /// Hosts a browser and a lenient parser could read differently, or that hide another host.
    static let refused: [String] = [
        "https://evil.example\\@ios.app/", "https://evil.example%5C@ios.app/", "https://evil.example%5c@ios.app/",
        "https://ios.app\\evil.example/", "https:\\\\evil.example/", "https:/\\evil.example/", "https://ios.app/\\evil",
        "https://evil.example@ios.app/", "https://user:pass@ios.app/", "https://ios.app@evil.example/", "https://@ios.app/",
        "https://evil.example%2F@ios.app/", "https://evil.example%2Fios.app/", "https://ios.app%2F.evil.example/",
        "https://evil.example%00.ios.app/", "https://ios%2Eapp/", "https://%69os.app/",
        "https://ios.app\t.evil.example/", "https://ios\t.app/", "\thttps://ios.app/", "https://ios.app/\t", "https://ios.app/a\nb",
        "https://ios.app\r\n/", "https://ios.app\u{0}/", "https://ios.app\u{7F}/", "https://ios.app/\u{85}", " https://ios.app/",
        "https://ios.app/a b",
        "https://ios.app\u{3002}evil.example/", "https://evil.example\u{3002}ios.app/", "https://\u{FF49}\u{FF4F}\u{FF53}.app/",
        "https://ios.\u{FF41}pp/", "https://b\u{FC}cher.example/", "https://ios.app\u{FF0F}evil.example/", "https://ios.app\u{2044}evil/",
        "https://ios.app\u{FE6B}evil.example/",
        "javascript://ios.app/%0Aalert(1)", "adobepass://ios.app", "ftp://ios.app/", "//ios.app/", "ios.app/", "https:ios.app",
        "https:/ios.app", "https:///ios.app", "https:///evil.example/", "https://", "https:///", "https://?x", "https://#x",
        "https://ios..app/", "https://.ios.app/", "https://ios.app./", "https://ios_app!.example/", "https://ios.app*/",
        "https://[::1]/", "https://[::ffff:7f00:1]/",
        "https://ios.app:/", "https://ios.app:0/", "https://ios.app:65536/", "https://ios.app:123456/", "https://ios.app:8a/",
        "https://ios.app:+80/", "https://ios.app:80:80/", "https://ios.app: 80/",
        "http://2130706433/", "http://127.1/", "http://0x7f.0.0.1/", "http://127.000.0.1/", "http://1.127.0.0.1/", "http://256.0.0.1/",
        "http://evil.0x10/", "http://evil.example.1/",
        "",
    ]

    @Test func hostileAndMalformedTargetsAreRefused() {
        for text in Self.refused {
            #expect(RedirectURL(text) == nil, "accepted \(text.debugDescription)")
        }
    }

    @Test func aTargetLongerThanTheLimitIsRefused() {
        let base = "https://ios.app/"
        #expect(RedirectURL(base + String(repeating: "a", count: RedirectURL.maximumLength - base.count)) != nil)
        #expect(RedirectURL(base + String(repeating: "a", count: RedirectURL.maximumLength - base.count + 1)) == nil)
    }

    @Test func schemeAndHostAreLowerCasedAndADefaultPortIsDropped() throws {
        let url = try #require(RedirectURL("HTTPS://Ios.APP:443/Watch/Now?Q=A#Top"))
        #expect(url.scheme == "https" && url.host == "ios.app" && url.port == nil)
        #expect(url.description == "https://ios.app/Watch/Now?Q=A#Top")
        #expect(RedirectURL("http://ios.app:80/")?.description == "http://ios.app/")
        #expect(RedirectURL("http://ios.app:443/")?.description == "http://ios.app:443/")
        #expect(RedirectURL("https://ios.app:08443/x")?.description == "https://ios.app:8443/x")
        #expect(RedirectURL("http://localhost:8080")?.description == "http://localhost:8080/")
    }

    @Test func pathQueryAndFragmentAreKept() {
        #expect(RedirectURL("https://ios.app")?.description == "https://ios.app/")
        #expect(RedirectURL("https://ios.app?x=1")?.description == "https://ios.app/?x=1")
        #expect(RedirectURL("https://ios.app#done")?.description == "https://ios.app/#done")
        #expect(RedirectURL("https://ios.app/a/b?x=1&y=%2F&z=?#f?g#h")?.description == "https://ios.app/a/b?x=1&y=%2F&z=?#f?g#h")
        #expect(RedirectURL("https://ios.app/%5C%2F%00")?.description == "https://ios.app/%5C%2F%00")
        #expect(RedirectURL("https://ios.app/?")?.query == "")
        #expect(RedirectURL("https://ios.app/")?.query == nil)
    }

    @Test func charactersOutsideURLsArePercentEncodedAsABrowserWould() {
        #expect(
            RedirectURL("https://ios.app/<a>\"{b}`c`?q=<'\">#<\"`>")?.description
                == "https://ios.app/%3Ca%3E%22%7Bb%7D%60c%60?q=%3C%27%22%3E#%3C%22%60%3E")
        #expect(RedirectURL("https://ios.app/caf\u{E9}?q=\u{6771}#\u{2028}")?.description == "https://ios.app/caf%C3%A9?q=%E6%9D%B1#%E2%80%A8")
        // A combining mark after a delimiter does not hide it: the `?` still starts the query.
        #expect(RedirectURL("https://ios.app/a?\u{338}b")?.description == "https://ios.app/a?%CC%B8b")
        #expect(RedirectURL("https://ios.app?\u{338}")?.path == "/")
    }

    @Test func asciiHostsAreTakenAsWritten() {
        // Punycode labels are IDN too: refused, valid (bücher) or not (as a browser would refuse it).
        #expect(RedirectURL("https://xn--bcher-kva.example/") == nil)
        #expect(RedirectURL("https://XN--IOS-APP.example/") == nil)
        #expect(RedirectURL("https://my_app-1.ios.app/")?.host == "my_app-1.ios.app")
        #expect(RedirectURL("http://127.0.0.1:8080/done")?.host == "127.0.0.1")
        #expect(RedirectURL("http://0.0.0.0/")?.isIPAddress == true)
        #expect(RedirectURL("http://a1.example/")?.isIPAddress == false)
    }

    @Test func domainsMatchTheParsedHost() throws {
        let url = try #require(RedirectURL("https://www.ios.app/"))
        #expect(url.isOn(domain: "ios.app") && url.isOn(domain: "IOS.app") && url.isOn(domain: "www.ios.app"))
        #expect(!url.isOn(domain: "s.app") && !url.isOn(domain: "app.") && !url.isOn(domain: ""))
        #expect(RedirectURL("https://evilios.app/")?.isOn(domain: "ios.app") == false)
        #expect(RedirectURL("https://ios.app.evil.example/")?.isOn(domain: "ios.app") == false)
        #expect(RedirectURL("http://127.0.0.1/")?.isOn(domain: "127.0.0.1") == true)
        #expect(RedirectURL("http://127.0.0.1/")?.isOn(domain: "0.0.1") == false)
    }

    @Test func originsCompareSchemeHostAndEffectivePort() {
        #expect(RedirectURL("https://SP.example:443/cb")?.origin == RedirectURL("https://sp.example/acs")?.origin)
        #expect(RedirectURL("http://sp.example/cb")?.origin != RedirectURL("https://sp.example/acs")?.origin)
        #expect(RedirectURL("https://sp.example:8443/cb")?.origin == "https://sp.example:8443")
    }

    @Test func appURIsArePrintableASCIIWithACustomScheme() {
        for good in ["adobepass://ios.app", "entitle-demo://callback", "com.example.app:/cb?x=1", "app+x.y-z://a%20b"] {
            #expect(RedirectURL.isAppURI(good), "\(good)")
        }
        for bad in [
            "https://ios.app/", "HTTP://ios.app/", "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,x", "vbscript:x", "file:///etc",
            "blob:x", "about:blank", "adobepass://ios.app\\@evil", "adobepass://ios.app\t", "adobepass://ios app", "adobepass://ios.app\u{0}",
            "adobepass://\u{FF49}os.app", "1app://x", "://x", "noscheme", "-app://x", "ap p://x", "",
            "adobepass://" + String(repeating: "a", count: RedirectURL.maximumLength),
        ] {
            #expect(!RedirectURL.isAppURI(bad), "\(bad.debugDescription)")
        }
    }
}
