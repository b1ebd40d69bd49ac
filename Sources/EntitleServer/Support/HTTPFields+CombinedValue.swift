import HTTPTypes

extension HTTPFields {
    /// The value of `name` exactly as `self[name]` gives it (several fields joined with ", "), without building and
    /// joining a list for the usual single field: the hot path reads several headers per request.
    func combinedValue(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if found != nil { return self[name] }
            found = field.value
        }
        return found
    }
}
