import EntitleCore
import Foundation
import NIOCore
import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// The hand-written decisions JSON is exactly what the general coders write and read.
@Suite struct DecisionsJSONTests {
    static func general(_ response: DecisionsResponse) -> String { String(decoding: JSONCoding.encode(response), as: UTF8.self) }
    static func fast(_ response: DecisionsResponse) -> String { String(decoding: DecisionsJSON.encode(response), as: UTF8.self) }

    @Test func answersAreByteForByteTheGeneralEncoders() {
        let token = MediaTokenInfo(
            notBefore: 1_700_000_000_000, notAfter: 1_700_000_420_000, issuedAt: 1_700_000_000_000, serializedToken: "PHNpZ25hdHVyZUluZm8+/+==")
        let cases: [DecisionsResponse] = [
            DecisionsResponse(decisions: []),
            DecisionsResponse(decisions: [
                Decision(
                    resource: "news", serviceProvider: "REF", mvpd: "DemoCable", source: .mvpd, authorized: true, token: token, notBefore: 1,
                    notAfter: 2)
            ]),
            DecisionsResponse(decisions: [
                Decision(
                    resource: "<rss version=\"2.0\">\n\t<channel><title>a/b \\ é 😀\u{1}</title></channel></rss>", serviceProvider: "REF",
                    mvpd: "Demo\"Cable", source: .degradation, authorized: false),
                Decision(
                    resource: "sports", serviceProvider: "REF", mvpd: "DemoCable", source: .tempPass, authorized: true,
                    token: MediaTokenInfo(notBefore: 5, notAfter: 6, serializedToken: "x")),
            ]),
            DecisionsResponse(decisions: [
                Decision(resource: "movies", serviceProvider: "REF", mvpd: "DemoCable", source: .mvpd, authorized: false, error: .invalidResources)
            ]),
            // Non-ASCII text that needs no escaping, and integers at their limits, through the fast writer.
            DecisionsResponse(decisions: [
                Decision(
                    resource: "séries/😀 <b>", serviceProvider: "REF", mvpd: "DemoCable", source: .mvpd, authorized: true,
                    token: MediaTokenInfo(notBefore: 0, notAfter: Int64.max, issuedAt: -1, serializedToken: String(repeating: "A", count: 4096)),
                    notBefore: Int64.min, notAfter: 9),
                Decision(
                    resource: "", serviceProvider: "REF", mvpd: "DemoCable", source: .degradation, authorized: true, notBefore: 10, notAfter: 10),
            ]),
        ]
        for response in cases {
            #expect(Self.fast(response) == Self.general(response))
            #expect(String(buffer: DecisionsJSON.body(response)) == Self.general(response), "the response body is the same text")
        }
    }

    @Test func requestsReadAsTheGeneralDecoderReadsThem() throws {
        for text in [#"{"resources":["news"]}"#, #" { "resources" : [ "news" , "sports" ] } "#, #"{"resources":[]}"#, "{\"resources\":[\"a/b é\"]}"] {
            let general = try JSONDecoder().decode(DecisionsRequest.self, from: Data(text.utf8)).resources
            #expect(DecisionsJSON.resources(text) == general, "\(text)")
        }
        // Anything unusual is left to the general decoder.
        for text in [
            #"{"resources":["ne\"ws"]}"#, #"{"resources":["news"],"x":1}"#, #"{"x":1,"resources":["news"]}"#, #"{"resources":"news"}"#, "", "{",
            #"{"resources":["news"]} x"#, #"{"resources":["a\u0000"]}"#,
        ] {
            #expect(DecisionsJSON.resources(text) == nil, "\(text)")
        }
    }
}
