// The public API speaks in X509 `Certificate` and `_RSA.Signing` keys: re-export those modules so that
// `import SAML` is enough for callers.
@_exported import X509
@_exported import Crypto
@_exported import _CryptoExtras
