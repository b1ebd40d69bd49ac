import EntitleCore
import EntitleHost
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Logging
import TestLogCapture
import Testing

/// Control characters in resource ids are refused before anything reaches the MVPD, and no untrusted value reaches a
/// log line raw.
@Suite struct ControlCharacterTests {
    @Test func resourcesWithControlCharactersAreRefused() async throws {
        // A real socket: the service asks the DemoMVPD's authorization API over HTTP.
        try await LocalService.run { host in
            let tv = try await host.client()
            _ = try await host.signIn(tv, user: "alice")
            let bad = [
                "news\u{1B}[2J", "ne\u{0}ws", "news\u{7F}", "news\u{85}", "news\u{202E}", "news\u{2028}",
                "<rss><channel><title>news\u{1B}[31m</title></channel></rss>", "news\n", "\tnews",
            ]
            for kind in ["authorize", "preauthorize"] {
                let items = try await tv.decisions(kind, mvpd: "DemoCable", resources: bad + ["news"])
                    .decode(DecisionsResponse.self).decisions
                #expect(items.count == bad.count + 1)
                for (item, resource) in zip(items, bad) {
                    #expect(
                        item.error?.code == "invalid_parameter_resources", "\(kind) \(resource.debugDescription): \(String(describing: item.error))")
                    #expect(!item.authorized)
                    #expect(item.token == nil)
                }
                #expect(items.last?.authorized == true)
            }
            // MRSS keeps its line breaks and indentation.
            let mrss = "<rss>\n\t<channel>\r\n<title>news</title></channel></rss>"
            let items = try await tv.decisions("preauthorize", mvpd: "DemoCable", resources: [mrss]).decode(DecisionsResponse.self).decisions
            #expect(items.first?.authorized == true)
        }
    }

    @Test func logEscapingWritesControlsVisibly() {
        #expect(LogEscaping.escape("a\u{1B}[31mb\u{0}c\nd\u{9B}e\u{202E}f") == "a\\u{1B}[31mb\\u{0}c\\u{A}d\\u{9B}e\\u{202E}f")
        #expect(LogEscaping.escape("plain ünïcode ✓") == "plain ünïcode ✓")
        let long = LogEscaping.escape(String(repeating: "x", count: 10_000))
        #expect(long.count < 300)
        #expect(long.hasSuffix("…(10000 characters)"))
    }

    @Test func theServeLogHandlerEscapesMessagesAndMetadata() {
        let capture = LogCapture()
        let logger = Logger(label: "t") { _ in
            EscapingLogHandler(capture.handler())
        }
        var withContext = logger
        withContext[metadataKey: "ctx"] = "x\u{1B}y"
        withContext.info(
            "line\u{1B}]0;title\u{7}",
            metadata: [
                "resource": "news\u{1B}[2J", "list": ["a\u{0}"],
                "nested": ["k": "\r\n"],
            ])
        let lines = capture.all
        #expect(lines.count == 1)
        for line in lines {
            #expect(!line.unicodeScalars.contains { LogEscaping.isUnsafe($0) }, "\(line.debugDescription)")
            #expect(line.contains("news\\u{1B}[2J"))
            #expect(line.contains("x\\u{1B}y"))
        }
    }
}
