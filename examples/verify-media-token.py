#!/usr/bin/env python3
"""Verifies an Entitle short media token without Swift, as a video server in another language would
(docs/media-token-verifier.md, "Without Swift"). Uses the `cryptography` package (pip install cryptography).

    python3 examples/verify-media-token.py --keys media-token.pem --requestor REF --resource news TOKEN
    python3 examples/verify-media-token.py --keys media-token.pem --now 2030-01-15T08:03:00Z --requestor REF --resource news TOKEN

Prints the status (valid, invalidFormat, invalidSignature, invalidRequestor, expired, invalidResource) and exits 0
only for a valid token. The keys are the PEM bundle the service publishes at /keys/media-token. Resources are compared
as identical strings after trimming (the Swift verifier also matches plain ids against MRSS; see the docs' rules).
"""
import argparse
import base64
import binascii
import datetime
import re
import sys

from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

SKEW_MS = 60_000  # the clock-skew tolerance, at both ends of the lifetime
FIELDS = ["sessionGUID", "requestorID", "resourceID", "ttl", "issueTime", "mvpdId", "proxyMvpdId"]
ENTITIES = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}


def load_keys(path):
    """The public keys of every certificate in a PEM bundle."""
    with open(path, "rb") as handle:
        return [certificate.public_key() for certificate in x509.load_pem_x509_certificates(handle.read())]


def signature_verifies(key, signature, body):
    """Whether `signature` over `body` verifies with `key` (RSA PKCS#1 v1.5 SHA-256, ECDSA P-256 r||s, Ed25519)."""
    try:
        if isinstance(key, rsa.RSAPublicKey) and len(signature) == key.key_size // 8:
            key.verify(signature, body, padding.PKCS1v15(), hashes.SHA256())
        elif isinstance(key, ec.EllipticCurvePublicKey) and len(signature) == 64:
            r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
            key.verify(encode_dss_signature(r, s), body, ec.ECDSA(hashes.SHA256()))
        elif isinstance(key, ed25519.Ed25519PublicKey) and len(signature) == 64:
            key.verify(signature, body)
        else:
            return False
        return True
    except InvalidSignature:
        return False


def unescape(text):
    text = re.sub(r"&#(x[0-9A-Fa-f]+|[0-9]+);", lambda m: chr(int(m.group(1)[1:], 16) if m.group(1)[0] == "x" else int(m.group(1))), text)
    return re.sub(r"&(amp|lt|gt|quot|apos);", lambda m: ENTITIES[m.group(0)], text)


def fields_of(body):
    """The seven fields of BODY, or None when it is not the documented element."""
    text = body.decode("utf-8")
    match = re.fullmatch(r"\s*<shortAuthorizationToken>(.*)</shortAuthorizationToken>\s*", text, re.S)
    if not match:
        return None
    found = dict()
    for name, value in re.findall(r"<([A-Za-z]+)>([^<]*)</\1>", match.group(1)):
        if name not in FIELDS or name in found:
            return None
        found[name] = unescape(value)
    if set(found) != set(FIELDS) or not re.fullmatch(r"[0-9]{1,18}", found["ttl"]) or not re.fullmatch(r"[0-9]{1,18}", found["issueTime"]):
        return None
    return found


def verify(token, keys, requestor, resource, now_ms):
    """The status of a serialized token."""
    try:
        outer = base64.b64decode(token.strip(), validate=True)
        _, signature_b64, body = outer.split(b"<signatureInfo>", 2)
        if _ != b"":
            return "invalidFormat"
        signature = base64.b64decode(signature_b64, validate=True)
    except (ValueError, binascii.Error):
        return "invalidFormat"
    if not any(signature_verifies(key, signature, body) for key in keys):
        return "invalidSignature"
    fields = fields_of(body)  # read only after the signature verified
    if fields is None:
        return "invalidFormat"
    if requestor is not None and fields["requestorID"] != requestor:
        return "invalidRequestor"
    issued, ttl = int(fields["issueTime"]), int(fields["ttl"])
    if not (issued - SKEW_MS <= now_ms < issued + ttl + SKEW_MS):
        return "expired"
    if resource is not None and fields["resourceID"].strip() != resource.strip():
        return "invalidResource"
    return "valid"


def main():
    parser = argparse.ArgumentParser(description="Verify an Entitle short media token.")
    parser.add_argument("--keys", required=True, help="PEM bundle from {service}/keys/media-token")
    parser.add_argument("--requestor", help="your requestor id (omit to skip the check)")
    parser.add_argument("--resource", help="the resource you are about to serve (omit to skip the check)")
    parser.add_argument("--now", help="the time to check at, ISO 8601 (default: now)")
    parser.add_argument("token")
    arguments = parser.parse_args()
    if arguments.now:
        now = datetime.datetime.fromisoformat(arguments.now.replace("Z", "+00:00"))
    else:
        now = datetime.datetime.now(datetime.timezone.utc)
    status = verify(arguments.token, load_keys(arguments.keys), arguments.requestor, arguments.resource, int(now.timestamp() * 1000))
    print(status)
    return 0 if status == "valid" else 1


if __name__ == "__main__":
    sys.exit(main())
