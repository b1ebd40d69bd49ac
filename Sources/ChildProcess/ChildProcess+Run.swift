#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// What a program that ran to its end wrote and how it ended.
    public struct Result: Sendable {
        /// The exit status (128 + the signal when a signal ended it).
        public let status: Int32
        /// Standard output and standard error, in the order written.
        public let output: String
    }

    /// Runs `executable` to its end (blocking this thread: for short tools) and returns its output.
    public static func run(_ executable: String, _ arguments: [String], directory: String? = nil) throws -> Result {
        var template = Array("/tmp/child-process-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw Failure("cannot create a temporary file") }
        close(fd)
        let path = String(cString: template)
        defer { unlink(path) }
        let process = try ChildProcess(
            executable: executable, arguments: arguments, directory: directory, standardOutput: path, standardError: path)
        let status = process.waitUntilExit()
        return Result(status: status, output: try readFile(path))
    }

    /// The contents of a file as UTF-8 text ("" when it cannot be read).
    public static func readFile(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
