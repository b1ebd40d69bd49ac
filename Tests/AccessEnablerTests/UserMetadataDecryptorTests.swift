import EntitleCore
import Foundation
import Testing
@testable import AccessEnabler
#if canImport(_CryptoExtras)
import _CryptoExtras
#endif

@Suite struct UserMetadataDecryptorTests {
    @Test func closureSeamDecryptsStringsAndArrays() throws {
        let decryptor = UserMetadataDecryptor { Data($0.reversed()) }
        #expect(try decryptor.decrypt(.string(Data("10001".utf8.reversed()).base64EncodedString())) == .string("10001"))
        #expect(try decryptor.decrypt(.string(Data(#"["a","b"]"#.utf8.reversed()).base64EncodedString())) == .array([.string("a"), .string("b")]))
        #expect(try decryptor.decrypt(.array([.string(Data("abc".utf8.reversed()).base64EncodedString())])) == .array([.string("abc")]))
        #expect(try decryptor.decrypt(.bool(true)) == .bool(true))
        #expect(throws: AccessEnablerError.self) { try decryptor.decrypt(.string("%%%")) }
    }

    #if canImport(_CryptoExtras)
    @Test func rsaOAEPWithTheProgrammersPrivateKey() throws {
        let key = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let decryptor = try UserMetadataDecryptor(privateKeyPEM: key.pemRepresentation)
        let sha256 = try key.publicKey.encrypt(Data("10001".utf8), padding: .PKCS1_OAEP_SHA256)
        #expect(try decryptor.decrypt(.string(sha256.base64EncodedString())) == .string("10001"))
        let sha1 = try key.publicKey.encrypt(Data("\"94105\"".utf8), padding: .PKCS1_OAEP)
        #expect(try decryptor.decrypt(.string(sha1.base64EncodedString())) == .string("94105"))
        let other = try _RSA.Encryption.PrivateKey(keySize: .bits2048)
        let foreign = try other.publicKey.encrypt(Data("x".utf8), padding: .PKCS1_OAEP_SHA256)
        #expect(throws: (any Error).self) { try decryptor.decrypt(.string(foreign.base64EncodedString())) }
        #expect(throws: (any Error).self) { try UserMetadataDecryptor(privateKeyPEM: "not a key") }
    }
    #endif
}
