#!/usr/bin/env python3
"""Makes the media-token test vector in Tests/MediaTokenVerifierTests/Fixtures/ (run once; the files are committed and
fixed): a key bundle of two self-signed RSA-2048 certificates (the second signs), a token built from the documented
format (docs/media-token-verifier.md, "Token format") and the expected verdicts at fixed times. Written independently of
the Swift signer, so the Swift verifier's test (TestVectorTests) also checks that the docs describe the format.
Needs the `cryptography` package."""
import base64
import datetime
import json
import os

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

OUT = os.path.join(os.path.dirname(__file__), "..", "MediaTokenVerifierTests", "Fixtures")
ISSUE = datetime.datetime(2030, 1, 15, 8, 0, 0, tzinfo=datetime.timezone.utc)


def certificate(key, name):
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    return (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(ISSUE - datetime.timedelta(days=1))
        .not_valid_after(ISSUE + datetime.timedelta(days=3650)).sign(key, hashes.SHA256())
    )


def token(key, fields):
    body = "<shortAuthorizationToken>" + "".join(f"<{name}>{value}</{name}>" for name, value in fields) + "</shortAuthorizationToken>"
    signature = key.sign(body.encode("utf-8"), padding.PKCS1v15(), hashes.SHA256())
    outer = b"<signatureInfo>" + base64.b64encode(signature) + b"<signatureInfo>" + body.encode("utf-8")
    return base64.b64encode(outer).decode("ascii")


def main():
    retired = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    signing = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    bundle = b"".join(certificate(k, n).public_bytes(serialization.Encoding.PEM) for k, n in [(retired, "Entitle media tokens (previous)"), (signing, "Entitle media tokens")])
    fields = [
        ("sessionGUID", "7f1c0e2a9b3d4c5e8f6a1b2c3d4e5f60"), ("requestorID", "REF"), ("resourceID", "news"), ("ttl", "420000"),
        ("issueTime", str(int(ISSUE.timestamp() * 1000))), ("mvpdId", "DemoCable"), ("proxyMvpdId", ""),
    ]
    good = token(signing, fields)
    stranger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    vector = {
        "about": "Entitle short media token test vector (docs/media-token-verifier.md). Keys: media-token-keys.pem.",
        "keys": "media-token-keys.pem",
        "token": good,
        "cases": [
            {"requestor": "REF", "resource": "news", "now": "2030-01-15T08:03:00Z", "expected": "valid"},
            {"requestor": "REF", "resource": "sports", "now": "2030-01-15T08:03:00Z", "expected": "invalidResource"},
            {"requestor": "OTHER", "resource": "news", "now": "2030-01-15T08:03:00Z", "expected": "invalidRequestor"},
            {"requestor": "REF", "resource": "news", "now": "2030-01-15T08:08:30Z", "expected": "expired"},
            {"requestor": "REF", "resource": "news", "now": "2030-01-15T07:58:00Z", "expected": "expired"},
            {"token": token(stranger, fields), "requestor": "REF", "resource": "news", "now": "2030-01-15T08:03:00Z", "expected": "invalidSignature"},
            {"token": "bm90IGEgdG9rZW4=", "requestor": "REF", "resource": "news", "now": "2030-01-15T08:03:00Z", "expected": "invalidFormat"},
        ],
    }
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "media-token-keys.pem"), "wb") as handle:
        handle.write(bundle)
    with open(os.path.join(OUT, "media-token-vector.json"), "w") as handle:
        json.dump(vector, handle, indent=2)
        handle.write("\n")


if __name__ == "__main__":
    main()
