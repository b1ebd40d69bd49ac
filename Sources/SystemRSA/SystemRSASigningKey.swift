#if canImport(COpenSSL)
internal import COpenSSL
#endif
import Foundation

/// An RSA private key held by the system's OpenSSL libcrypto, which signs PKCS#1 v1.5 SHA-256 faster than
/// swift-crypto's BoringSSL on CPUs with wide vector units (OpenSSL's AVX-512 IFMA code path).
///
/// PKCS#1 v1.5 is deterministic: for the same key and input the signature is byte-identical to any other
/// implementation's. The `EVP_PKEY` is created once and only read afterwards; OpenSSL allows concurrent signing
/// with one key from many threads (each call has its own `EVP_MD_CTX`), which is why the type is `Sendable`.
package final class SystemRSASigningKey: @unchecked Sendable {
    #if canImport(COpenSSL)
    private let key: OpaquePointer
    #endif

    /// The key size in bits.
    package let bits: Int

    /// Whether the system's libcrypto is linked into this build.
    package static var isAvailable: Bool {
        #if canImport(COpenSSL)
        true
        #else
        false
        #endif
    }

    /// The linked implementation, e.g. "OpenSSL 3.0.22 25 Aug 2026", or nil when none is.
    package static var implementationName: String? {
        #if canImport(COpenSSL)
        OpenSSL_version(Int32(OPENSSL_VERSION)).map { String(cString: $0) }
        #else
        nil
        #endif
    }

    /// Loads a PEM RSA private key (PKCS#1 or PKCS#8). Throws ``SystemRSAError`` when libcrypto is absent, the PEM
    /// does not parse, or the key is not RSA.
    package init(pem: String) throws {
        #if canImport(COpenSSL)
        let bytes = Array(pem.utf8)
        let parsed: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let parsed else {
            ERR_clear_error()
            throw SystemRSAError("the PEM is not a private key OpenSSL can read")
        }
        guard EVP_PKEY_get_base_id(parsed) == EVP_PKEY_RSA else {
            EVP_PKEY_free(parsed)
            throw SystemRSAError("the key is not an RSA key")
        }
        key = parsed
        bits = Int(EVP_PKEY_get_bits(parsed))
        #else
        throw SystemRSAError("this build has no system libcrypto")
        #endif
    }

    deinit {
        #if canImport(COpenSSL)
        EVP_PKEY_free(key)
        #endif
    }

    /// The RSASSA-PKCS1-v1_5 signature with SHA-256 over `message`.
    package func signature(for message: Data) throws -> Data {
        #if canImport(COpenSSL)
        guard let context = EVP_MD_CTX_new() else { throw SystemRSAError("out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var signature = Data(count: (bits + 7) / 8)
        var length = signature.count
        let ok = message.withUnsafeBytes { input in
            signature.withUnsafeMutableBytes { output in
                var keyContext: OpaquePointer?
                guard EVP_DigestSignInit(context, &keyContext, EVP_sha256(), nil, key) == 1,
                    EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1
                else { return false }
                return EVP_DigestSign(
                    context, output.bindMemory(to: UInt8.self).baseAddress, &length,
                    input.bindMemory(to: UInt8.self).baseAddress, input.count) == 1
            }
        }
        guard ok else {
            ERR_clear_error()
            throw SystemRSAError("OpenSSL could not sign")
        }
        return signature.prefix(length)
        #else
        throw SystemRSAError("this build has no system libcrypto")
        #endif
    }
}

/// Why the system RSA implementation could not be used.
package struct SystemRSAError: Error, CustomStringConvertible {
    /// What went wrong.
    package let description: String

    init(_ description: String) { self.description = description }
}
