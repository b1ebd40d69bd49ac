import EntitleModel
import EntitleStorage
import HTTPTypes

extension HTTPFields {
    /// The value of `name` exactly as `self[name]` gives it (several fields joined with ", "), without building and
    /// joining a list for the usual single field: the hot path reads several headers per request.
    package func combinedValue(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            if found != nil { return self[name] }
            found = field.value
        }
        return found
    }

    /// ``combinedValue(_:)`` of three names, read in one pass over the fields.
    package func combinedValues(
        _ first: HTTPField.Name, _ second: HTTPField.Name, _ third: HTTPField.Name
    ) -> (String?, String?, String?) {
        var found: (String?, String?, String?)
        var repeated = false
        for field in self {
            if field.name == first {
                repeated = repeated || found.0 != nil
                found.0 = field.value
            } else if field.name == second {
                repeated = repeated || found.1 != nil
                found.1 = field.value
            } else if field.name == third {
                repeated = repeated || found.2 != nil
                found.2 = field.value
            }
        }
        // A repeated field is joined as `self[name]` joins it: the rare case, left to the general reading.
        guard !repeated else { return (combinedValue(first), combinedValue(second), combinedValue(third)) }
        return found
    }
}
