#!/usr/bin/env python3
"""A standard SAML 2.0 identity provider built on pysaml2 (not on Entitle's code), for the onboarding test.

Usage: idp.py --port PORT --sp-metadata FILE --workdir DIR [--post-only] [--proxy]

Serves, on 127.0.0.1:PORT:
  GET  /idp/metadata          the IdP's metadata (HTTP-Redirect and HTTP-POST SingleSignOnService, or POST only)
  GET  /sso/redirect          an AuthnRequest by the HTTP-Redirect binding -> a login form
  POST /sso/post              an AuthnRequest by the HTTP-POST binding -> a login form
  POST /login                 username/password -> a signed Response posted to the SP's ACS (auto-post form)
Subscribers: frank / frank-pass (user id F-100, zip 30301); grace / grace-pass (user id G-200, channel lineup
news and sports in `authorized_resources`).
With --proxy it plays a proxy MVPD (Adobe's proxy SAML integration): an AuthnRequest must name the proxied MVPD in
<samlp:Scoping> (IDPList/IDPEntry ProviderID and a RequesterID), and the Response and Assertion are issued in the
proxied MVPD's name (Issuer and NameQualifier = the IDPEntry's ProviderID), signed with this IdP's key. A test may post
`as_provider` with the login form to answer in another proxied MVPD's name instead.
Prints "ready" on standard output once it listens.
"""
import argparse
import html
import os
import signal
import subprocess
import sys
import urllib.parse
from wsgiref.simple_server import WSGIRequestHandler, make_server

from saml2 import BINDING_HTTP_POST, BINDING_HTTP_REDIRECT
from saml2.config import IdPConfig
from saml2.metadata import create_metadata_string
from saml2.saml import NAMEID_FORMAT_PERSISTENT, NameID
from saml2.server import Server
from saml2.xmldsig import DIGEST_SHA256, SIG_RSA_SHA256

USERS = {
    "frank": ("frank-pass", {"uid": ["F-100"], "zip": ["30301"]}),
    # A subscriber whose assertion carries a channel lineup (preflight by lineup: one AttributeValue per resource).
    "grace": ("grace-pass", {"uid": ["G-200"], "authorized_resources": ["news", "sports"]}),
    # A subscriber signed in at home (HBA): the MVPD says so in an attribute of its own naming, which the service maps
    # to hba_status.
    "henry": ("henry-pass", {"uid": ["H-300"], "homeBased": ["true"]}),
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--sp-metadata", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--post-only", action="store_true")
    parser.add_argument("--proxy", action="store_true")
    args = parser.parse_args()
    base = "http://127.0.0.1:%d" % args.port
    key, cert = os.path.join(args.workdir, "idp-key.pem"), os.path.join(args.workdir, "idp-cert.pem")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "2", "-subj", "/CN=pysaml2 test IdP"], check=True, capture_output=True)
    sso = [("%s/sso/post" % base, BINDING_HTTP_POST)]
    if not args.post_only:
        sso.insert(0, ("%s/sso/redirect" % base, BINDING_HTTP_REDIRECT))
    config = IdPConfig()
    config.load({
        "entityid": "%s/idp/metadata" % base,
        "service": {"idp": {
            "endpoints": {"single_sign_on_service": sso},
            "name_id_format": [NAMEID_FORMAT_PERSISTENT],
            "want_authn_requests_signed": False,
            "policy": {"default": {"lifetime": {"minutes": 5}, "attribute_restrictions": None}},
            "signing_algorithm": SIG_RSA_SHA256, "digest_algorithm": DIGEST_SHA256,
        }},
        "key_file": key, "cert_file": cert,
        "metadata": {"local": [args.sp_metadata]},
        "xmlsec_binary": "/usr/bin/xmlsec1",
        "signing_algorithm": SIG_RSA_SHA256, "digest_algorithm": DIGEST_SHA256,
        "allow_unknown_attributes": True,
    })
    idp = Server(config=config)
    metadata = create_metadata_string(None, config=config, sign=False).decode()

    def page(start, status, body, content_type="text/html; charset=utf-8"):
        data = body.encode()
        start(status, [("Content-Type", content_type), ("Content-Length", str(len(data)))])
        return [data]

    def login_form(start, saml_request, relay_state, binding, message=""):
        hidden = "".join('<input type="hidden" name="%s" value="%s">' % (name, html.escape(value or "", quote=True))
                         for name, value in (("SAMLRequest", saml_request), ("RelayState", relay_state), ("binding", binding)))
        return page(start, "200 OK", """<!doctype html><html><body><h1>pysaml2 test IdP</h1><p>%s</p>
<form method="post" action="/login">%s<label>User <input name="username"></label>
<label>Password <input name="password" type="password"></label><button type="submit">Sign in</button></form></body></html>"""
                    % (html.escape(message), hidden))

    def app(environ, start):
        path, method = environ["PATH_INFO"], environ["REQUEST_METHOD"]
        if method == "POST":
            length = int(environ.get("CONTENT_LENGTH") or 0)
            fields = urllib.parse.parse_qs(environ["wsgi.input"].read(length).decode())
        else:
            fields = urllib.parse.parse_qs(environ.get("QUERY_STRING", ""))
        field = lambda name: (fields.get(name) or [None])[0]
        try:
            if path == "/idp/metadata":
                return page(start, "200 OK", metadata, "application/samlmetadata+xml")
            if path == "/sso/redirect" and method == "GET" and not args.post_only:
                idp.parse_authn_request(field("SAMLRequest"), BINDING_HTTP_REDIRECT)  # refuse a malformed request now
                return login_form(start, field("SAMLRequest"), field("RelayState"), BINDING_HTTP_REDIRECT)
            if path == "/sso/post" and method == "POST":
                idp.parse_authn_request(field("SAMLRequest"), BINDING_HTTP_POST)
                return login_form(start, field("SAMLRequest"), field("RelayState"), BINDING_HTTP_POST)
            if path == "/login" and method == "POST":
                binding = field("binding")
                request = idp.parse_authn_request(field("SAMLRequest"), binding).message
                user = USERS.get(field("username") or "")
                if user is None or user[0] != field("password"):
                    return login_form(start, field("SAMLRequest"), field("RelayState"), binding, "Wrong user name or password.")
                identity = user[1]
                destination = request.assertion_consumer_service_url
                issuer = config.entityid
                if args.proxy:
                    scoping = request.scoping
                    entries = scoping.idp_list.idp_entry if scoping is not None and scoping.idp_list is not None else []
                    requesters = [r.text for r in (scoping.requester_id if scoping is not None else []) if r.text]
                    if not entries or not entries[0].provider_id or not requesters:
                        return page(start, "400 Bad Request", "proxy: the AuthnRequest names no proxied MVPD in its Scoping",
                                    "text/plain")
                    issuer = field("as_provider") or entries[0].provider_id
                saved, config.entityid = config.entityid, issuer
                try:
                    response = idp.create_authn_response(
                        identity, in_response_to=request.id, destination=destination, sp_entity_id=request.issuer.text,
                        name_id=NameID(format=NAMEID_FORMAT_PERSISTENT, text=identity["uid"][0],
                                       name_qualifier=issuer if args.proxy else None),
                        authn={"class_ref": "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"},
                        sign_response=True, sign_assertion=True)
                finally:
                    config.entityid = saved
                form = idp.apply_binding(BINDING_HTTP_POST, str(response), destination, field("RelayState"), response=True)
                return page(start, "200 OK", form["data"])
            return page(start, "404 Not Found", "not found", "text/plain")
        except Exception as error:  # a malformed request: a clear 400, never a crash
            return page(start, "400 Bad Request", "bad SAML request: %s" % error, "text/plain")

    class Quiet(WSGIRequestHandler):
        def log_message(self, *_):
            pass

    # A parent may have left SIGTERM blocked or ignored (both are inherited); the test stops this process with it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = make_server("127.0.0.1", args.port, app, handler_class=Quiet)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
