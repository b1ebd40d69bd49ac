import EntitleHTTP
import Foundation
import Testing

/// The pages' templates are read from the resources once at start; a missing or broken one stops the start with an
/// error that names the file.
@Suite struct PageTemplatesTests {
    /// A copy of the shipped templates in a scratch folder, changed by `change`, then loaded.
    static func loadChanged(_ change: (URL) throws -> Void) throws -> PageTemplates {
        let shipped = try #require(PageTemplates.bundledDirectory)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-templates-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.copyItem(at: shipped, to: scratch)
        try change(scratch)
        return try PageTemplates(directory: scratch)
    }

    @Test func everyShippedTemplateLoads() throws {
        let templates = try PageTemplates.bundled()
        for name in PageTemplates.pageNames { #expect(templates.pages.getTemplate(named: name) != nil, "\(name)") }
        for name in PageTemplates.consoleNames { #expect(templates.console.getTemplate(named: name) != nil, "\(name)") }
    }

    @Test func everyConsolePageNamesALoadedTemplate() {
        // A page whose template name is not loaded would render an empty body.
        let pages: [any ConsolePageContent.Type] = [
            ConsoleMessagePage.self, ConsoleRequestorsPage.self, ConsoleRequestorPage.self, ConsoleMVPDsPage.self, ConsoleMVPDPage.self,
            ConsoleKeysPage.self, ConsoleOperatorsPage.self, ConsoleChangesPage.self, ConsoleReportsPage.self, ConsoleSingleSignOnPage.self,
        ]
        for page in pages { #expect(PageTemplates.consoleNames.contains(page.template), "\(page)") }
    }

    @Test func aBrokenTemplateNamesItsFileAndTheParseError() throws {
        let error = #expect(throws: TemplateLoadingError.self) {
            try Self.loadChanged { folder in
                try Data("{{% CONTENT_TYPE: EntitleHTML}}\n<h1>Keys</h1>\n{{#purposes}}{{purpose}}{{/keys}}".utf8)
                    .write(to: folder.appendingPathComponent("console/keys.mustache"))
            }
        }
        let caught = try #require(error)
        let text = "\(caught)"
        #expect(text.hasPrefix("TemplateLoadingError: templates/console/keys.mustache: line 3"), "\(text)")
        #expect(text.contains("sectionCloseNameIncorrect"), "\(text)")
    }

    @Test func aMissingTemplateNamesItsFile() throws {
        let error = #expect(throws: TemplateLoadingError.self) {
            try Self.loadChanged { folder in try FileManager.default.removeItem(at: folder.appendingPathComponent("pages/picker.mustache")) }
        }
        let caught = try #require(error)
        let text = "\(caught)"
        #expect(text.hasPrefix("TemplateLoadingError: templates/pages/picker.mustache: cannot be read"), "\(text)")
    }
}
