import ArgumentParser
import Foundation

/// One configuration for `entitle serve`: every option of the command may also come from the environment
/// (`ENTITLE_<OPTION>`, upper snake case: `--data-dir` is `ENTITLE_DATA_DIR`) and from a configuration file
/// (`--config FILE` or `ENTITLE_CONFIG`, JSON or YAML, keys named as the long options). Precedence: flag > environment >
/// file > default. The settings are read from the command's own argument definitions (ArgumentParser's help dump), so
/// an option added to `serve` is configurable everywhere without more code.
///
/// The values from the environment and the file become command-line arguments ahead of parsing; each is checked on its
/// own first, so that a bad value names where it came from.
struct ServeConfiguration: Sendable {
    /// Where a setting's effective value comes from.
    enum Source: Sendable, Equatable {
        case flag
        case environment(String)
        case file(String)
        case `default`
    }

    /// A setting of `serve`: an option (a value, or repeated values) or a flag.
    struct Setting: Sendable, Equatable {
        /// The long option name, also the file key.
        let name: String
        /// Whether it takes no value (a flag such as `--no-demo`).
        let isFlag: Bool
        /// Whether it may be repeated (a list, such as `--trusted-proxy`).
        let isRepeating: Bool
        /// The built-in default, as the help shows it (nil: none).
        let defaultValue: String?

        /// The environment variable: `ENTITLE_` and the name in upper snake case.
        var environmentName: String { "ENTITLE_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }
    }

    /// A setting's effective value and its source.
    struct Resolved: Sendable, Equatable {
        /// The setting.
        let setting: Setting
        /// The values (one for an option, several for a repeated one, "true"/"false" for a flag; empty when unset).
        let values: [String]
        /// Where they come from.
        let source: Source
    }

    /// The arguments `serve` is parsed with: those given, then those from the environment and the file.
    let arguments: [String]
    /// Every setting with its effective value, in the order of the help.
    let settings: [Resolved]

    /// Options that are about the configuration itself, not settings of the service.
    static let notSettings: Set<String> = ["config", "print-config", "help", "experimental-dump-help", "version"]
    /// Options whose values exclude each other: when one is set at a layer, the others from lower layers are ignored.
    static let exclusiveGroups: [Set<String>] = [["database-url", "database-url-file"]]

    /// A configuration problem: a clear message, exit status 64 (like other usage errors).
    struct Problem: Error, CustomStringConvertible, Sendable {
        /// What is wrong and where.
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The settings of `serve`, from its argument definitions.
    static func settings() throws -> [Setting] {
        let dump: String
        do {
            _ = try Serve.parseAsRoot(["--experimental-dump-help"])
            throw Problem("the settings of serve could not be read")
        } catch let problem as Problem {
            throw problem
        } catch {
            dump = Serve.fullMessage(for: error)
        }
        let info = try JSONDecoder().decode(HelpDump.self, from: Data(dump.utf8))
        return (info.command.arguments ?? []).compactMap { argument in
            guard argument.kind != "positional",
                let name = argument.names?.first(where: { $0.kind == "long" })?.name,
                !notSettings.contains(name)
            else { return nil }
            return Setting(
                name: name, isFlag: argument.kind == "flag", isRepeating: argument.isRepeating,
                defaultValue: argument.defaultValue)
        }
    }

    /// Resolves the arguments given after `serve` with `environment` and the configuration file they (or
    /// `ENTITLE_CONFIG`) name.
    static func resolve(arguments: [String], environment: [String: String]) throws -> ServeConfiguration {
        let settings = try settings()
        let byName = Dictionary(uniqueKeysWithValues: settings.map { ($0.name, $0) })
        let given = CommandLineValues(arguments)
        let configPath = given.values["config"]?.last ?? nonEmpty(environment["ENTITLE_CONFIG"])
        let file = try configPath.map { try ConfigurationFile.load(path: $0, settings: byName) }

        var added: [String] = []
        var resolved: [Resolved] = []
        var setLayers: [String: Int] = [:]  // the highest layer (0 flag, 1 environment, 2 file) that set each setting
        for setting in settings {
            if given.values[setting.name] != nil { setLayers[setting.name] = 0 }
            if values(setting, environment) != nil { setLayers[setting.name] = min(setLayers[setting.name] ?? 1, 1) }
            if file?.values[setting.name] != nil { setLayers[setting.name] = min(setLayers[setting.name] ?? 2, 2) }
        }
        for setting in settings {
            let group = exclusiveGroups.first { $0.contains(setting.name) } ?? [setting.name]
            let groupLayer = group.compactMap { setLayers[$0] }.min()
            if let values = given.values[setting.name] {
                resolved.append(Resolved(setting: setting, values: setting.isFlag ? ["true"] : values, source: .flag))
            } else if groupLayer == 1, let values = values(setting, environment) {
                try check(setting, values, from: "\(setting.environmentName)=\(environment[setting.environmentName] ?? "")")
                added += commandLine(setting, values)
                resolved.append(Resolved(setting: setting, values: values, source: .environment(setting.environmentName)))
            } else if groupLayer == 2, let file, let values = file.values[setting.name] {
                try check(setting, values, from: "\(setting.name) in \(file.path)")
                added += commandLine(setting, values)
                resolved.append(Resolved(setting: setting, values: values, source: .file(file.path)))
            } else {
                let values = setting.isFlag ? ["false"] : Self.defaultValues(setting)
                resolved.append(Resolved(setting: setting, values: values, source: .default))
            }
        }
        return ServeConfiguration(arguments: arguments + added, settings: resolved)
    }

    /// A setting's built-in default as values (none for an empty list or no default).
    static func defaultValues(_ setting: Setting) -> [String] {
        guard let text = setting.defaultValue, !text.isEmpty, text != "[]" else { return [] }
        if setting.isRepeating {
            return text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        return [text]
    }

    /// A setting's values from the environment: a list is comma-separated; a flag is true/false (also 1/0, yes/no).
    static func values(_ setting: Setting, _ environment: [String: String]) -> [String]? {
        guard let text = nonEmpty(environment[setting.environmentName]) else { return nil }
        if setting.isRepeating {
            return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if setting.isFlag {
            switch text.lowercased() {
            case "true", "1", "yes", "on": return ["true"]
            case "false", "0", "no", "off": return ["false"]
            default: return [text]  // refused by check(_:_:from:)
            }
        }
        return [text]
    }

    /// The command-line arguments for a setting's values.
    static func commandLine(_ setting: Setting, _ values: [String]) -> [String] {
        if setting.isFlag { return values == ["true"] ? ["--" + setting.name] : [] }
        return values.flatMap { ["--" + setting.name, $0] }
    }

    /// Parses a setting's values alone, so that a bad one is reported with where it came from.
    static func check(_ setting: Setting, _ values: [String], from origin: String) throws {
        if setting.isFlag {
            guard values == ["true"] || values == ["false"] else {
                throw Problem("\(origin): --\(setting.name) is a flag: give true or false.")
            }
            return
        }
        if !setting.isRepeating && values.count != 1 {
            throw Problem("\(origin): --\(setting.name) takes one value, not a list.")
        }
        // Alone, but with the flag that relaxes the rule between --public-url and --host: that rule is checked on the
        // whole command line, where the other options are known.
        let relaxing = setting.name == "allow-insecure-public-url" ? [] : ["--allow-insecure-public-url"]
        do { _ = try Serve.parse(commandLine(setting, values) + relaxing) } catch {
            throw Problem("\(origin): " + Serve.message(for: error))
        }
    }

    /// A value that is neither missing nor blank.
    static func nonEmpty(_ value: String?) -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }
}

/// The options given on the command line, by long name (`--name value`, `--name=value`, a flag's name alone).
struct CommandLineValues {
    /// The values of each option given; a flag has an empty list.
    var values: [String: [String]] = [:]

    init(_ arguments: [String]) {
        let flags = Set(((try? ServeConfiguration.settings()) ?? []).filter(\.isFlag).map(\.name) + ["print-config", "help"])
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument != "--" else {
                if argument == "--" { break }
                continue
            }
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                values[String(body[..<equals]), default: []].append(String(body[body.index(after: equals)...]))
            } else if flags.contains(String(body)) {
                values[String(body), default: []] += []
            } else if index < arguments.count {
                values[String(body), default: []].append(arguments[index])
                index += 1
            } else {
                values[String(body), default: []] += []
            }
        }
    }
}

/// The part of ArgumentParser's `--experimental-dump-help` JSON that names a command's arguments.
struct HelpDump: Decodable {
    struct Command: Decodable {
        let arguments: [Argument]?
    }
    struct Argument: Decodable {
        struct Name: Decodable {
            let kind: String
            let name: String
        }
        let kind: String
        let names: [Name]?
        let isRepeating: Bool
        let defaultValue: String?
    }
    let command: Command
}
