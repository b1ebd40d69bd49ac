@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import HTTPTypes
import Testing

/// Forwarding headers count only from trusted proxies, read from the right past every trusted hop.
@Suite struct ClientAddressTests {
    static let proxies = [IPAddressRange("10.0.0.0/8")!, IPAddressRange("fd00::/8")!]

    static func resolve(peer: String?, _ fields: [(String, String)], trusted: [IPAddressRange] = proxies) -> ClientAddress {
        var headers = HTTPFields()
        for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
        return ClientAddress.resolve(peer: peer, headers: headers, trusted: trusted)
    }

    @Test func headersFromAnUntrustedPeerAreIgnored() {
        let spoofed = Self.resolve(peer: "203.0.113.9", [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-Proto", "https")])
        #expect(spoofed == ClientAddress(address: "203.0.113.9", https: false))
        let forwarded = Self.resolve(peer: "203.0.113.9", [("Forwarded", "for=198.51.100.1;proto=https")])
        #expect(forwarded == ClientAddress(address: "203.0.113.9", https: false))
        #expect(Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "198.51.100.1")], trusted: []).address == "10.1.2.3")
    }

    @Test func aTrustedProxyNamesTheClient() {
        #expect(
            Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-Proto", "https")])
                == ClientAddress(address: "198.51.100.1", https: true))
        // A client-supplied address left of the one the proxy added is not believed.
        #expect(Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "1.2.3.4, 198.51.100.1")]).address == "198.51.100.1")
        // Chains of trusted proxies are walked past.
        #expect(Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "198.51.100.1, 10.9.9.9")]).address == "198.51.100.1")
        #expect(Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "198.51.100.1"), ("X-Forwarded-For", "10.9.9.9")]).address == "198.51.100.1")
        // Garbage stops the walk at the last hop a trusted proxy vouched for.
        #expect(Self.resolve(peer: "10.1.2.3", [("X-Forwarded-For", "198.51.100.1, not-an-ip")]).address == "10.1.2.3")
        // No header: the proxy itself.
        #expect(Self.resolve(peer: "10.1.2.3", []) == ClientAddress(address: "10.1.2.3", https: false))
    }

    @Test func forwardedIsParsedAsRFC7239Says() {
        #expect(
            Self.resolve(peer: "10.1.2.3", [("Forwarded", #"for="[2001:db8::1]:4711";proto=https"#)])
                == ClientAddress(address: "2001:db8::1", https: true))
        #expect(Self.resolve(peer: "10.1.2.3", [("Forwarded", "for=192.0.2.60:8080;proto=http, for=10.0.0.7")]).address == "192.0.2.60")
        #expect(Self.resolve(peer: "fd00::1", [("Forwarded", "For=192.0.2.60")]).address == "192.0.2.60")
        // Forwarded wins over X-Forwarded-For when both are there.
        #expect(Self.resolve(peer: "10.1.2.3", [("Forwarded", "for=192.0.2.60"), ("X-Forwarded-For", "198.51.100.1")]).address == "192.0.2.60")
    }

    @Test func rangesParseAndMatch() throws {
        let v4 = try #require(IPAddressRange("192.168.0.0/16"))
        #expect(v4.contains("192.168.44.1") && !v4.contains("192.169.0.1") && !v4.contains("::1"))
        #expect(v4.contains("::ffff:192.168.1.1"))
        #expect(v4.description == "192.168.0.0/16")
        let single = try #require(IPAddressRange("127.0.0.1"))
        #expect(single.contains("127.0.0.1") && !single.contains("127.0.0.2"))
        #expect(try #require(IPAddressRange("::1")).contains("::1"))
        #expect(try #require(IPAddressRange("0.0.0.0/0")).contains("8.8.8.8"))
        for bad in ["", "10.0.0.0/33", "10.0.0.0/-1", "example.com", "10.0.0/8", "::1/129", "10.0.0.0/x"] {
            #expect(IPAddressRange(bad) == nil, "\(bad) was accepted")
        }
    }
}
