import Foundation
import Mustache

/// A template file that could not be read or parsed. The service does not start without every page, and the message
/// names the file and what is wrong with it.
package struct TemplateLoadingError: Error, CustomStringConvertible, LocalizedError {
    /// The file, relative to the module's resources, for example `templates/console/keys.mustache`.
    package var file: String
    /// What is wrong with it: missing, not UTF-8, or the Mustache parser's error with its line and column.
    package var reason: String

    package init(file: String, reason: String) { (self.file, self.reason) = (file, reason) }

    package var description: String { "TemplateLoadingError: \(file): \(reason)" }
    package var errorDescription: String? { description }
}

/// The Mustache templates of the service's pages (`templates/pages/<name>.mustache`) and of the operator console
/// (`templates/console/<name>.mustache`), read from the module's resources once, when the service starts. Each file is
/// one template as is (a final newline would be part of the page); each starts with `{{% CONTENT_TYPE: EntitleHTML}}`,
/// the escaping of ``PageEscaping``. A template refers to another of its folder by its name (`{{<layout}}`, `{{>why}}`).
package struct PageTemplates: Sendable {
    /// The service's pages: the sign-in pages' frame and pages, the landing page and the plain message page.
    package static let pageNames = ["layout", "activate", "picker", "message", "landing", "plainMessage"]
    /// The console's frame, its change-form fragments, sign-in and pages.
    package static let consoleNames = [
        "layout", "why", "description", "signIn", "message", "requestors", "requestor", "mvpds", "mvpd", "keys", "operators", "changes",
        "reports", "sso",
    ]

    /// The service's pages (``Pages``).
    package let pages: MustacheLibrary
    /// The console's pages (``ConsolePages``).
    package let console: MustacheLibrary

    /// Reads and parses every template under `directory` (the folder that holds `pages/` and `console/`); `prefix` is
    /// how the error names that folder.
    package init(directory: URL, prefix: String = "templates") throws {
        PageEscaping.registered
        func library(_ folder: String, _ names: [String]) throws -> MustacheLibrary {
            var templates: [String: MustacheTemplate] = [:]
            for name in names {
                let file = "\(prefix)/\(folder)/\(name).mustache"
                let url = directory.appendingPathComponent(folder).appendingPathComponent(name + ".mustache")
                let data: Data
                do { data = try Data(contentsOf: url) } catch {
                    throw TemplateLoadingError(file: file, reason: "cannot be read (\(url.path)): \(error.localizedDescription)")
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    throw TemplateLoadingError(file: file, reason: "is not UTF-8 text")
                }
                do { templates[name] = try MustacheTemplate(string: text) } catch let error as MustacheTemplate.ParserError {
                    throw TemplateLoadingError(
                        file: file,
                        reason: "line \(error.context.lineNumber), column \(error.context.columnNumber): \(error.error) in “\(error.context.line)”")
                } catch {
                    throw TemplateLoadingError(file: file, reason: "\(error)")
                }
            }
            return MustacheLibrary(templates: templates)
        }
        pages = try library("pages", Self.pageNames)
        console = try library("console", Self.consoleNames)
    }

    /// The folder of the templates shipped in the module's resources (`Resources/templates`, copied into the
    /// `*.resources` bundle beside the binary).
    package static var bundledDirectory: URL? {
        Bundle.module.url(forResource: "templates", withExtension: nil) ?? Bundle.module.resourceURL?.appendingPathComponent("templates")
    }

    /// The templates shipped in the module's resources.
    package static func bundled() throws -> PageTemplates {
        guard let directory = bundledDirectory else {
            throw TemplateLoadingError(file: "templates", reason: "the module's resource bundle is missing")
        }
        return try PageTemplates(directory: directory)
    }
}
