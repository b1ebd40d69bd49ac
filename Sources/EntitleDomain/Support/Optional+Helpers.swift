import EntitleModel
import EntitleStorage

extension Optional where Wrapped == String {
    /// nil for nil or empty strings.
    package var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}

extension Optional {
    /// Maps with an async throwing transform.
    package func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
