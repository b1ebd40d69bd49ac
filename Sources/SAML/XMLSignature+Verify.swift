import CLibXML2
import Crypto
import _CryptoExtras
import EntitleCore
import Foundation

/// Verification of enveloped XMLDSig signatures with a strict profile: exc-c14n, RSA-SHA256, SHA-256, exactly
/// one same-document Reference to the Signature's parent element, transforms enveloped-signature + exc-c14n.
/// RSA-SHA1 and SHA-1 digests are accepted only when the caller allows them (a legacy IdP the operator vouched for).
enum XMLSignatureVerifier {
    /// What a verified signature covers and whether it used SHA-1.
    struct Verified {
        let element: xmlNodePtr
        let usedSHA1: Bool
    }

    /// Verifies `signature` and returns the element it covers (always its parent). The element is looked up in
    /// `ids` (built with duplicate-ID rejection). Throws `unsupportedAlgorithm`, `badDigest` or `badSignature`.
    static func verify(
        signature: xmlNodePtr, doc: XMLDoc, ids: [String: xmlNodePtr],
        keys: [_RSA.Signing.PublicKey], allowSHA1: Bool = false
    ) throws -> Verified {
        func bad(_ message: String) -> SAMLError { SAMLError(.badSignature, message) }
        func unsupported(_ what: String, _ algorithm: String) -> SAMLError {
            SAMLError(.unsupportedAlgorithm, "unsupported \(what) algorithm \(algorithm)")
        }
        let parts = signature.childElements
        guard parts.count >= 2, parts[0].isElement(NS.dsig, "SignedInfo"), parts[1].isElement(NS.dsig, "SignatureValue")
        else { throw bad("Signature must start with SignedInfo and SignatureValue") }
        let signedInfo = parts[0]
        let infoParts = signedInfo.childElements
        guard infoParts.count >= 3,
            infoParts[0].isElement(NS.dsig, "CanonicalizationMethod"),
            infoParts[1].isElement(NS.dsig, "SignatureMethod")
        else { throw bad("SignedInfo lacks CanonicalizationMethod or SignatureMethod") }
        let references = infoParts.dropFirst(2)
        guard references.count == 1, let reference = references.first, reference.isElement(NS.dsig, "Reference")
        else { throw bad("SignedInfo must contain exactly one Reference") }

        let c14nAlgorithm = infoParts[0].attribute("Algorithm") ?? ""
        guard c14nAlgorithm == DSAlgorithm.excC14N || c14nAlgorithm == DSAlgorithm.excC14NWithComments
        else { throw unsupported("canonicalization", c14nAlgorithm) }
        let signatureAlgorithm = infoParts[1].attribute("Algorithm") ?? ""
        guard signatureAlgorithm == DSAlgorithm.rsaSHA256 || (allowSHA1 && signatureAlgorithm == DSAlgorithm.rsaSHA1) else {
            throw unsupported("signature", signatureAlgorithm)
        }

        // Reference → the enveloping element.
        guard let uri = reference.attribute("URI"), uri.hasPrefix("#"), uri.count > 1 else {
            throw bad("Reference URI must point to an element ID")
        }
        let id = String(uri.dropFirst())
        guard let target = ids[id] else { throw bad("Reference points to unknown ID \(id)") }
        guard signature.pointee.parent == target else {
            throw bad("Signature is not enveloped in the element it references")
        }
        let refParts = reference.childElements
        guard refParts.count == 3, refParts[0].isElement(NS.dsig, "Transforms"),
            refParts[1].isElement(NS.dsig, "DigestMethod"), refParts[2].isElement(NS.dsig, "DigestValue")
        else { throw bad("Reference must contain Transforms, DigestMethod and DigestValue") }
        let transforms = refParts[0].childElements
        guard transforms.allSatisfy({ $0.isElement(NS.dsig, "Transform") }) else { throw bad("unexpected element in Transforms") }
        let transformAlgorithms = transforms.map { $0.attribute("Algorithm") ?? "" }
        guard transformAlgorithms.count == 2, transformAlgorithms[0] == DSAlgorithm.enveloped,
            transformAlgorithms[1] == DSAlgorithm.excC14N || transformAlgorithms[1] == DSAlgorithm.excC14NWithComments
        else {
            throw unsupported("transform", transformAlgorithms.joined(separator: ", "))
        }
        let digestAlgorithm = refParts[1].attribute("Algorithm") ?? ""
        let sha1Digest = allowSHA1 && digestAlgorithm == DSAlgorithm.sha1
        guard digestAlgorithm == DSAlgorithm.sha256 || sha1Digest else { throw unsupported("digest", digestAlgorithm) }
        guard let expectedDigest = Data(base64IgnoringWhitespace: refParts[2].textContent), expectedDigest.count == (sha1Digest ? 20 : 32) else {
            throw bad("DigestValue is not a base64 \(sha1Digest ? "SHA-1" : "SHA-256") value")
        }

        // A bare-name "#id" reference selects the element without comment nodes (XMLDSig 4.3.3.3), so even the
        // #WithComments transform renders no comments here — as xmlsec does.
        let referenced = try XMLCanonicalizer.canonicalize(
            doc, apex: target, excluding: signature,
            inclusivePrefixes: inclusivePrefixes(of: transforms[1]), withComments: false)
        let digest = sha1Digest ? Array(Insecure.SHA1.hash(data: referenced)) : Array(SHA256.hash(data: referenced))
        guard digest.elementsEqual(expectedDigest) else {
            throw SAMLError(.badDigest, "digest of element \(id) does not match (content changed after signing)")
        }

        guard let signatureBytes = Data(base64IgnoringWhitespace: parts[1].textContent), !signatureBytes.isEmpty else {
            throw bad("SignatureValue is not base64")
        }
        let signedInfoBytes = try XMLCanonicalizer.canonicalize(
            doc, apex: signedInfo, inclusivePrefixes: inclusivePrefixes(of: infoParts[0]),
            withComments: c14nAlgorithm == DSAlgorithm.excC14NWithComments)
        let value = _RSA.Signing.RSASignature(rawRepresentation: signatureBytes)
        let sha1Signature = signatureAlgorithm == DSAlgorithm.rsaSHA1
        let valid = keys.contains { key in
            sha1Signature
                ? key.isValidSignature(value, for: Insecure.SHA1.hash(data: signedInfoBytes), padding: .insecurePKCS1v1_5)
                : key.isValidSignature(value, for: signedInfoBytes, padding: .insecurePKCS1v1_5)
        }
        guard valid else { throw bad("signature value does not verify with any trusted certificate") }
        return Verified(element: target, usedSHA1: sha1Signature || sha1Digest)
    }

    /// PrefixList of an `ec:InclusiveNamespaces` child of a CanonicalizationMethod or Transform.
    private static func inclusivePrefixes(of node: xmlNodePtr) -> [String] {
        guard let list = node.child(NS.excC14N, "InclusiveNamespaces")?.attribute("PrefixList") else { return [] }
        return list.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
    }
}
