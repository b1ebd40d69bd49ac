import EntitleCore
import EntitleModel
import EntitleStorage
import SAML

/// How the attributes of a SAML assertion become a profile's user metadata. Real MVPDs name their attributes in many
/// ways (`urn:oid:…`, `urn:mace:dir:attribute-def:…`, plain names): each user-metadata key lists the SAML attribute
/// names it is read from, first present wins, and `NameID` stands for the subject's NameID. An operator's mapping
/// for an MVPD (`entitle admin mvpd add --attribute userID=urn:…`) comes first; the defaults fill in keys it leaves out.
/// Attributes that no key consumes are kept under their own names.
package struct SAMLAttributeMapping: Sendable, Equatable {
    /// The pseudo attribute name of the subject's NameID.
    package static let nameID = "NameID"

    /// Common names of the user-metadata keys.
    package static let defaults: [String: [String]] = [
        "userID": [
            "userID", "urn:mace:dir:attribute-def:userid", "urn:oid:0.9.2342.19200300.100.1.1", "urn:mace:dir:attribute-def:uid",
            "uid", "userid", "userId", "user_id",
        ],
        "upstreamUserID": ["upstreamUserID"],
        "householdID": ["householdID", "householdId", "household_id"],
        "mail": [
            "mail", "email", "urn:oid:0.9.2342.19200300.100.1.3", "urn:mace:dir:attribute-def:mail",
            "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
        ],
        "zip": ["zip", "postalCode", "postal_code", "urn:oid:2.5.4.17", "urn:mace:dir:attribute-def:postalCode"],
    ]

    /// The operator's mapping for one MVPD.
    package let configured: [String: [String]]

    /// A mapping with `configured` before the defaults.
    package init(_ configured: [String: [String]] = [:]) { self.configured = configured }

    /// Parses `key=name` pairs as given to `--attribute` (repeat a key for several names, in order).
    package static func parse(_ pairs: [String]) throws -> [String: [String]] {
        var mapping: [String: [String]] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex, pair.index(after: equals) != pair.endIndex else {
                throw ConfigurationError("--attribute takes KEY=SAML-ATTRIBUTE-NAME (or KEY=NameID), not \"\(pair)\".")
            }
            mapping[String(pair[..<equals]), default: []].append(String(pair[pair.index(after: equals)...]))
        }
        return mapping
    }

    /// The user metadata of `assertion`.
    package func userMetadata(of assertion: ValidatedAssertion) -> [String: [String]] {
        map(assertion.attributes.filter { !$0.value.isEmpty }, nameID: [assertion.nameID])
    }

    /// Applies the mapping to attributes of any value type (SAML attribute values, an OAuth 2.0 MVPD's profile
    /// claims); `nameID` is the value of the pseudo attribute ``nameID``.
    package func map<Value>(_ attributes: [String: Value], nameID: Value) -> [String: Value] {
        var result: [String: Value] = [:]
        var consumed = Set<String>()
        func value(of name: String) -> Value? { name == Self.nameID ? nameID : attributes[name] }
        // Explicit keys first, then default keys the operator did not configure.
        for (key, names) in configured {
            guard let name = names.first(where: { value(of: $0) != nil }) else { continue }
            result[key] = value(of: name)
            consumed.insert(name)
        }
        for (key, names) in Self.defaults where configured[key] == nil {
            guard let name = names.first(where: { value(of: $0) != nil }) else { continue }
            result[key] = value(of: name)
            consumed.insert(name)
        }
        for (name, values) in attributes where !consumed.contains(name) && result[name] == nil {
            result[name] = values
        }
        return result
    }

    /// Groups the values of configured keys named `parent.child` into one object-valued key `parent` (so
    /// `--attribute maxRating.MPAA=MaxMovieRating --attribute maxRating.VCHIP=MaxTVRating` gives `maxRating`
    /// `{"MPAA": …, "VCHIP": …}`, as the SDK spec delivers it). Other keys are left as they are.
    package func grouped(_ metadata: [String: JSONValue]) -> [String: JSONValue] {
        var result = metadata
        var objects: [String: [String: JSONValue]] = [:]
        for key in configured.keys {
            guard let dot = key.firstIndex(of: "."), dot != key.startIndex, key.index(after: dot) != key.endIndex,
                let value = result.removeValue(forKey: key)
            else { continue }
            objects[String(key[..<dot]), default: [:]][String(key[key.index(after: dot)...])] = value
        }
        for (parent, fields) in objects { result[parent] = .object(fields) }
        return result
    }
}
