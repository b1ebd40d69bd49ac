import ArgumentParser
import EntitleDomain
import EntitleHTTP
import Foundation

/// `entitle admin catalog export|apply`: the catalog as code (docs/operator-guide.md, "Catalog as code").
extension Admin {
    struct Catalog: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Export the catalog as YAML, or apply a catalog file (plan, dry run, prune).",
            discussion:
                "Requestors, MVPDs with their options, integrations, SSO issuers and software statements. Secrets are never inline: the document refers to files (export --secrets-dir writes them).",
            subcommands: [Export.self, Apply.self])

        struct Export: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Write the whole catalog as YAML (secrets as references to files).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Write the document to this file (default: standard output).") var out: String?
            @Option(
                help: ArgumentHelp(
                    "Also write each secret to a file (mode 0600) in this folder.",
                    discussion:
                        "Without it the document still refers to secrets/<mvpd>-authorization-key and secrets/<mvpd>-oauth2-client-secret, which apply reads when present; a secret whose file is absent keeps the value the target service has."
                ))
            var secretsDir: String?
            @Flag(help: "JSON instead of YAML.") var json = false

            func run() async throws {
                let reference = Self.reference(secretsDir: secretsDir, out: out)
                let document = try await Admin.withService(admin) { try await $0.catalogAsCode.export(secretsFolder: reference) }
                var written = 0
                if let secretsDir {
                    do {
                        try FileManager.default.createDirectory(
                            atPath: secretsDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                        for (_, secret) in document.secretPaths {
                            guard let file = secret.file, let value = secret.value else { continue }
                            let path = secretsDir + "/" + (file as NSString).lastPathComponent
                            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
                            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
                            try Data(value.utf8).write(to: URL(fileURLWithPath: path))
                            written += 1
                        }
                    } catch { throw AdminFailure.exit("cannot write the secrets to \(secretsDir): \(error)") }
                }
                let text: String
                do {
                    if json {
                        let encoder = JSONEncoder()
                        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                        text = String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
                    } else {
                        text = try CatalogYAML.encode(document)
                    }
                } catch { throw AdminFailure.exit("cannot encode the catalog: \(error)") }
                if let out {
                    do { try Data(text.utf8).write(to: URL(fileURLWithPath: out)) } catch { throw AdminFailure.exit("cannot write \(out): \(error)") }
                } else {
                    print(text, terminator: "")
                }
                let secrets = document.secretPaths.count
                let note =
                    secrets == 0
                    ? ""
                    : secretsDir != nil
                        ? " \(written) secret\(written == 1 ? "" : "s") written to \(secretsDir!) (mode 0600)."
                        : " \(secrets) secret\(secrets == 1 ? " is a reference" : "s are references") to files under \(reference)/ that were not written (--secrets-dir writes them)."
                FileHandle.standardError.write(
                    Data(
                        "catalog: \(document.requestors.count) requestors, \(document.mvpds.count) MVPDs, \(document.integrations.count) integrations, \(document.ssoIssuers.count) SSO issuers, \(document.softwareStatements.count) software statements.\(note)\n"
                            .utf8))
            }

            /// How the document names the secrets folder: relative to the document's folder when it is inside it, else absolute.
            static func reference(secretsDir: String?, out: String?) -> String {
                guard let secretsDir else { return CatalogOperations.defaultSecretsFolder }
                let secrets = URL(fileURLWithPath: secretsDir).standardizedFileURL.path
                let folder =
                    out.map { URL(fileURLWithPath: $0).standardizedFileURL.deletingLastPathComponent().path }
                    ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
                if secrets.hasPrefix(folder + "/") { return String(secrets.dropFirst(folder.count + 1)) }
                return secrets
            }
        }

        struct Apply: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Apply a catalog file: print the plan, then create and update what differs (--dry-run: only the plan).",
                discussion:
                    "What the service has and the file does not name is reported and kept; --prune removes it (software statements are revoked). A file with any problem is refused whole, nothing applied. Each change goes to the changes log, described as catalog.apply."
            )
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "The catalog document (YAML or JSON).") var file: String
            @Flag(help: "Print the plan without changing anything.") var dryRun = false
            @Flag(help: "Remove what exists but is not in the file.") var prune = false
            @Flag(help: "Print the plan as JSON.") var json = false

            func run() async throws {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw AdminFailure.exit("cannot read \(file)") }
                let document: CatalogDocument
                do {
                    document = try Self.resolvingSecrets(
                        CatalogDocument.read(json: CatalogYAML.json(from: text, source: file), source: file),
                        folder: URL(fileURLWithPath: file).deletingLastPathComponent())
                } catch { throw AdminFailure.exit("\(error)") }
                let plan = try await Admin.withService(admin) {
                    try await $0.catalogAsCode.apply(document, source: file, dryRun: dryRun, prune: prune, actor: Admin.cliActor)
                }
                if json {
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    print(String(decoding: try encoder.encode(plan), as: UTF8.self))
                } else {
                    print(plan.text)
                }
            }

            /// Each secret's value read from its file (relative to the document's folder); a file that is absent leaves the
            /// value to the service.
            static func resolvingSecrets(_ document: CatalogDocument, folder: URL) -> CatalogDocument {
                document.mappingSecrets { _, secret in
                    guard secret.value == nil, let file = secret.file else { return secret }
                    let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : folder.appendingPathComponent(file)
                    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return secret }
                    var value = text
                    while value.hasSuffix("\n") || value.hasSuffix("\r") { value.removeLast() }
                    return CatalogSecret(file: file, value: value)
                }
            }
        }
    }
}
