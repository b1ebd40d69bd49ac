import AsyncHTTPClient
import EntitleClients
import EntitleCore
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import NIOHTTP1
import Testing

/// The operator console in headless Chromium against the real service (demo world): sign-in, every change an operator
/// makes there, each seen in the changes log with its description; a read-only operator sees everything and is
/// refused every change. Screenshots in `test-output/console-*.png`.
@Suite(.serialized, .enabled(if: WebDriver.enabled))
struct ConsoleBrowserTests {
    static let password = "correct horse battery staple"

    func withConsole(_ body: (LocalService, WebDriver) async throws -> Void) async throws {
        try await LocalService.run { service in
            _ = try await service.service.operators.add(username: "ops", role: .readWrite, password: Self.password)
            _ = try await service.service.operators.add(username: "viewer", role: .readOnly, password: Self.password)
            let driver = try await WebDriver.start(http: service.httpClient)
            do {
                try await body(service, driver)
                await driver.quit()
            } catch {
                await driver.screenshot("console-failure-\(UUID().uuidString.prefix(8))")
                await driver.quit()
                throw error
            }
        }
    }

    func signIn(_ driver: WebDriver, _ service: LocalService, as username: String) async throws {
        try await driver.open(service.baseURL + "/console")
        try await driver.waitForText("Operator name")
        try await driver.type("#username", username)
        try await driver.type("#password", Self.password)
        try await driver.click("button[type=submit]")
        try await driver.waitForText("<h1>Requestors</h1>")
    }

    /// Fills the "why" field of the form matching `form` and submits it; waits for the message it leaves.
    func submit(_ driver: WebDriver, form: String, why: String, expect message: String) async throws {
        try await driver.type("\(form) input[name=description]", why)
        try await driver.click("\(form) button[type=submit]")
        try await driver.waitForText(message)
    }

    func text(_ driver: WebDriver, _ css: String) async throws -> String {
        try await driver.script("var e=document.querySelector(arguments[0]);return e?e.textContent:null", [css]) as? String ?? ""
    }

    @Test func anOperatorMakesEveryChangeAndReadsItInTheChangesLog() async throws {
        try await withConsole { service, driver in
            // Unauthenticated: the console sends the browser to sign-in; a wrong password is refused there.
            try await driver.open(service.baseURL + "/console/requestors/REF")
            try await driver.waitForText("Operator name")
            #expect(try await driver.currentURL().hasSuffix("/console/sign-in"))
            try await driver.type("#username", "ops")
            try await driver.type("#password", "wrong password")
            try await driver.click("button[type=submit]")
            try await driver.waitForText("role=\"alert\"")
            await driver.screenshot("console-sign-in-refused")
            try await signIn(driver, service, as: "ops")
            #expect(try await text(driver, "#requestors").contains("REF"))
            #expect(try await text(driver, "#who") == "ops · read-write")
            await driver.screenshot("console-requestors")

            // Integrations: disable, then enable again.
            try await driver.open(service.baseURL + "/console/requestors/REF")
            try await submit(driver, form: "#integration-DemoCable form", why: "DemoCable outage drill", expect: "DemoCable is disabled for REF.")
            #expect(try await text(driver, "#integration-DemoCable").contains("disabled"))
            #expect(try await service.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first?.enabled == false)
            try await submit(driver, form: "#integration-DemoCable form", why: "drill over", expect: "DemoCable is enabled for REF.")

            // An app: issue a software statement, download it (a statement the service accepts), revoke it.
            try await driver.type("#statement-name", "Console App")
            try await driver.type("#statement-redirects", "adobepass://ios.app")
            try await submit(driver, form: "#issue-statement", why: "new tvOS app", expect: "issued: download it")
            let statementRow =
                try await driver.script(
                    "var r=[...document.querySelectorAll('#statements tr')].find(function(r){return r.textContent.includes('Console App')});return r?r.id:null"
                )
                as? String ?? ""
            let softwareID = String(statementRow.dropFirst("statement-".count))
            let jwt =
                try await driver.asyncScript(
                    "var done=arguments[arguments.length-1];fetch(document.querySelector('#'+arguments[0]+' a[download]').href).then(function(r){return r.text()}).then(done)",
                    [statementRow]) as? String ?? ""
            #expect(
                await service.service.applications.isApproved(softwareStatement: jwt), "the downloaded statement is not accepted: \(jwt.prefix(40))")
            await driver.screenshot("console-requestor")
            try await submit(driver, form: "#\(statementRow) form", why: "app withdrawn", expect: "Software statement \(softwareID) is revoked")

            // A client registered by a device, revoked from the console.
            var device = RESTClient(transport: service.transport, baseURL: service.baseURL, serviceProvider: "REF", deviceID: "console-device")
            let clientID = try await device.registerAndAuthorize(softwareStatement: service.softwareStatement).clientID
            try await driver.open(service.baseURL + "/console/requestors/REF")
            try await submit(driver, form: "#client-\(clientID) form", why: "leaked credentials", expect: "Client \(clientID) is revoked")

            // An outage: a degradation rule, then removed; a TempPass reset for a device.
            try await driver.script(
                "document.querySelector('#degradation-mvpd').value='DemoCable';document.querySelector('#degradation-rule').value='authz-all'")
            try await driver.type("#degradation-minutes", "30")
            try await submit(
                driver, form: "#set-degradation", why: "DemoCable authz outage", expect: "authz-all is in force for REF/DemoCable for 30 minutes.")
            #expect(try await text(driver, "#degradation").contains("authz-all"))
            try await submit(driver, form: "#degradation form", why: "outage over", expect: "The authz-all rule for REF/DemoCable is removed.")
            try await driver.type("#temppass-device", "living-room-tv")
            try await submit(driver, form: "#reset-temppass", why: "customer call 4711", expect: "TempPass of device living-room-tv reset")

            // MVPDs: add one from its metadata URL, edit it with an uploaded metadata file, disable it.
            try await driver.open(service.baseURL + "/console/mvpds")
            try await driver.type("#mvpd-id", "CableTwo")
            try await driver.type("#mvpd-name", "Cable Two")
            try await driver.type("#mvpd-metadata-url", service.baseURL + "/demo-mvpd/DemoCable/saml/metadata")
            try await driver.type("#mvpd-requestors", "REF")
            try await submit(driver, form: "#add-mvpd", why: "onboarding Cable Two", expect: "CableTwo is added and integrated with REF.")
            #expect(try await text(driver, "#mvpds").contains("Cable Two"))
            await driver.screenshot("console-mvpds")
            try await driver.open(service.baseURL + "/console/mvpds/CableTwo")
            let metadata = try await service.httpClient.execute(
                HTTPClientRequest(url: service.baseURL + "/demo-mvpd/DemoCable/saml/metadata"), timeout: AnswerPatience.timeAmount
            ).body.collect(upTo: 1 << 20)
            let file = NSTemporaryDirectory() + "cable-two-\(UUID().uuidString).xml"
            try Data(buffer: metadata).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            try await driver.type("#edit-metadata-file", file)
            try await driver.type("#edit-name", "Cable Two East")
            try await driver.click("input[name=requiresSafariViewController]")
            try await driver.script("document.querySelector('#edit-protocol').value='xacml'")
            try await driver.type("#edit-authz-url", service.baseURL + "/demo-mvpd/DemoCable/xacml")
            try await submit(driver, form: "#edit-mvpd", why: "new metadata and name", expect: "CableTwo is saved.")
            let edited = try await service.service.mvpds.view(id: "CableTwo")
            #expect(edited.name == "Cable Two East" && edited.requiresSafariViewController)
            #expect(edited.authorizationProtocol == "xacml" && edited.authorizationURL == service.baseURL + "/demo-mvpd/DemoCable/xacml")
            await driver.screenshot("console-mvpd")
            try await submit(driver, form: "#toggle-mvpd", why: "contract paused", expect: "CableTwo is disabled for every requestor.")

            // Keys: the page says what a rotation affects before it is done.
            try await driver.open(service.baseURL + "/console/keys")
            // `open` returns at once (page-load strategy "none"): wait for the new page before reading it.
            try await driver.waitForText("id=\"impact-saml-sp\"")
            #expect(try await text(driver, "#impact-jwt").contains("software statements"))
            #expect(try await text(driver, "#impact-saml-sp").contains("/sp/saml/metadata"))
            try await driver.click("#purpose-media-token input[name=confirm]")
            try await submit(driver, form: "#purpose-media-token form", why: "yearly rotation", expect: "New media-token key")
            await driver.screenshot("console-keys")

            // The changes log shows each change with its actor, its description and the values before and after.
            try await driver.open(service.baseURL + "/console/changes")
            // The oldest change is the table's last row: once it is there, the whole page is.
            try await driver.waitForText("DemoCable outage drill")
            let log = try await text(driver, "#changes")
            for (action, why) in [
                ("integration.disable", "DemoCable outage drill"), ("integration.enable", "drill over"),
                ("software-statement.create", "new tvOS app"),
                ("software-statement.revoke", "app withdrawn"), ("client.revoke", "leaked credentials"),
                ("degradation.set", "DemoCable authz outage"),
                ("degradation.remove", "outage over"), ("temppass.reset", "customer call 4711"), ("mvpd.add", "onboarding Cable Two"),
                ("mvpd.update", "new metadata and name"), ("mvpd.disable", "contract paused"), ("keys.rotate", "yearly rotation"),
            ] {
                #expect(log.contains(action) && log.contains(why), "the changes log lacks \(action) (\(why))")
            }
            #expect(log.contains("operator:ops"))
            #expect(log.contains("\"enabled\" : false"), "the values before and after are shown")
            let changes = try await service.service.repository.changeLogStore.changes(since: 0)
            #expect(changes.first { $0.action == "keys.rotate" }?.description == "yearly rotation")
            await driver.screenshot("console-changes")
            // The same page on a laptop's screen.
            _ = try await driver.command(.POST, "/window/rect", ["width": 1366, "height": 900])
            await driver.screenshot("console-changes-laptop")
            try await driver.open(service.baseURL + "/console/requestors/REF")
            await driver.screenshot("console-requestor-laptop")

            // Signing out ends the session: the console asks to sign in again.
            try await driver.click("header form button")
            try await driver.waitForText("Operator name")
            try await driver.open(service.baseURL + "/console/keys")
            try await driver.waitForText("Operator name")
        }
    }

    @Test func aReadOnlyOperatorSeesEverythingAndIsRefusedEveryChange() async throws {
        try await withConsole { service, driver in
            try await signIn(driver, service, as: "viewer")
            try await driver.open(service.baseURL + "/console/requestors/REF")
            try await driver.waitForText("Your role is read-only")
            #expect(try await text(driver, "#integrations").contains("DemoCable"))
            let forms = try await driver.script("return document.querySelectorAll('main form').length") as? Int
            #expect(forms == 0, "a read-only operator is offered no change")
            await driver.screenshot("console-read-only")
            // A change posted anyway (as a crafted page would) is refused on the server, and nothing changes.
            let status =
                try await driver.asyncScript(
                    """
                    var done=arguments[arguments.length-1];
                    var csrf=document.querySelector('header input[name=csrf]').value;
                    fetch('/console/requestors/REF/integrations/DemoCable',{method:'POST',
                      body:new URLSearchParams({csrf:csrf,description:'sneaky',enabled:'false'})}).then(function(r){done(r.status)});
                    """) as? Int
            #expect(status == 403)
            #expect(try await service.service.integrations.views(requestor: "REF", mvpd: "DemoCable").first?.enabled == true)
            for page in ["/console/mvpds", "/console/keys"] {
                try await driver.open(service.baseURL + page)
                try await driver.waitForText("Your role is read-only")
                #expect(try await driver.script("return document.querySelectorAll('main form[method=post]').length") as? Int == 0)
            }
            #expect(try await service.service.repository.changeLogStore.changes(since: 0).allSatisfy { $0.actor != "operator:viewer" })
        }
    }
}

extension ConsoleBrowserTests {
    /// After a scripted burst of sign-ins and plays, the reports page draws every chart with the figures the requests
    /// made, gives each a table, and its CSV link answers the same figures; a read-only operator may read it all.
    @Test func theReportsPageChartsABurstOfSignInsAndPlays() async throws {
        try await withConsole { service, driver in
            try await service.reportBurst()
            try await signIn(driver, service, as: "viewer")
            _ = try await driver.command(.POST, "/window/rect", ["width": 1366, "height": 1400])
            try await driver.open(service.baseURL + "/console/reports?period=1h")
            let deadline = Date().addingTimeInterval(30)
            var state = ""
            while Date() < deadline {
                // Until the new page is there (`open` returns at once), the report counts as loading.
                state =
                    try await driver.script("var e=document.getElementById('report');return e?e.getAttribute('data-state'):'loading'") as? String
                    ?? ""
                if state != "loading" { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            await driver.screenshot("console-reports")
            let problem = try await text(driver, "#report-error")
            #expect(state == "ready", "the reports page did not draw: \(problem)")
            // The sum of each series as Chart.js holds it.
            let sums =
                try await driver.script(
                    """
                    var out={};document.querySelectorAll('#report canvas').forEach(function(c){var chart=Chart.getChart(c);
                      if(!chart){out[c.id]=null;return;}
                      chart.data.datasets.forEach(function(d){out[c.id+'/'+d.label]=d.data.reduce(function(a,b){return a+b},0)});});
                    return out;
                    """) as? [String: Any] ?? [:]
            func sum(_ key: String) -> Double { (sums[key] as? NSNumber)?.doubleValue ?? -1 }
            #expect(sum("chart-signins/Attempts") == 3 && sum("chart-signins/Successes") == 2 && sum("chart-signins/Failures") == 1, "\(sums)")
            #expect(sum("chart-authorizations/Granted") == 3 && sum("chart-authorizations/Denied") == 1, "\(sums)")
            #expect(sum("chart-tokens/Media tokens") == 3 && sum("chart-tokens/Preauthorizations") == 2, "\(sums)")
            #expect(sum("chart-mvpd/Sign-ins") == 2 && sum("chart-platform/Sign-ins") == 2, "\(sums)")
            #expect(sum("chart-latency/Average ms") >= 0, "\(sums)")
            // The breakdown (by resource unless the form chose another) and its unique accounts.
            #expect(sum("chart-breakdown/Authorizations granted") == 3 && sum("chart-breakdown/Authorizations denied") == 1, "\(sums)")
            #expect(sum("chart-accounts/Unique accounts") >= 2, "\(sums)")
            let tables = try await driver.script("return document.querySelectorAll('#report details table').length") as? Int
            #expect(tables == 8, "each chart has a table of its figures")
            let csv =
                try await driver.asyncScript(
                    "var done=arguments[arguments.length-1];fetch(document.getElementById('csv-mvpd').href).then(function(r){return r.text()}).then(done)"
                )
                as? String ?? ""
            #expect(csv.hasPrefix("mvpd,") && csv.contains("DemoCable"), "\(csv.prefix(200))")
        }
    }
}

extension WebDriver {
    /// Runs `script` (a function body) with `args` in the page and returns its value.
    func script(_ script: String, _ args: [Any]) async throws -> Any? { try await command(.POST, "/execute/sync", ["script": script, "args": args]) }

    /// Runs an asynchronous `script`: it ends by calling its last argument with the value to return.
    func asyncScript(_ script: String, _ args: [Any] = []) async throws -> Any? {
        try await command(.POST, "/execute/async", ["script": script, "args": args])
    }
}
