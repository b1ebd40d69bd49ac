"""An OAuth 2.0 / OpenID provider standing in for an OAuth 2.0 MVPD (Comcast's oauth.xfinity.com, Fubo), built on
Authlib's authorization server (PyPI `authlib`, on Flask) — software this project did not write. Started by the
OAuth 2.0 MVPD tests on a free loopback port; prints `LISTENING <port>` once it accepts connections.

Endpoints: OIDC discovery, authorization (a login form, the authorization-code grant with PKCE S256 required),
token (authorization_code and refresh_token grants, client_secret_basic or client_secret_post; the refresh token is
stable, as Adobe's MVPD guide requires), RFC 7009 revocation, userinfo, RP-initiated logout, and the MVPD's REST
authorization API (`GET /authz?uuID&mrss&IPAddress` with the user's Bearer access token, answered in XACML 2.0).
`POST /control/token-endpoint` makes the token endpoint misbehave (`fail`, `slow`, `malformed`, `normal`) so the tests
can check how Entitle copes.
"""

import argparse
import base64
import html
import json
import re
import secrets
import signal
import threading
import time
import urllib.parse

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector, current_token
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask, Response, jsonify, redirect, request
from werkzeug.serving import make_server

USERS = {
    "sam": {
        "password": "sam-pass",
        "sub": "stream-user-sam",
        "channels": ["news", "sports"],
        "household_id": "HH-900",
        "postalCode": "02134",
        "maxRating": {"MPAA": "PG-13", "VCHIP": "TV-Y"},
    },
    "tess": {
        "password": "tess-pass",
        "sub": "stream-user-tess",
        "channels": ["news"],
        "household_id": "HH-901",
        "postalCode": "02135",
        "maxRating": {"MPAA": "G", "VCHIP": "TV-Y"},
    },
}

LOCK = threading.Lock()
CODES = {}  # code -> AuthorizationCode
TOKENS = []  # Token
MODE = {"token": "normal"}
COUNTS = {"refresh": 0, "code": 0}


class Client:
    def __init__(self, client_id, secret, redirect_uris):
        self.client_id, self.client_secret, self.redirect_uris = client_id, secret, redirect_uris

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.redirect_uris[0]

    def get_allowed_scope(self, scope):
        allowed = {"openid", "profile", "email", "offline_access"}
        return " ".join(s for s in (scope or "").split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret):
        return secrets.compare_digest(client_secret or "", self.client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return method in ("client_secret_basic", "client_secret_post")

    check_token_endpoint_auth_method = check_endpoint_auth_method

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in ("authorization_code", "refresh_token")


class AuthorizationCode:
    def __init__(self, code, client_id, user, redirect_uri, scope, challenge, method):
        self.code, self.client_id, self.user, self.redirect_uri, self.scope = code, client_id, user, redirect_uri, scope
        self.code_challenge, self.code_challenge_method = challenge, method
        self.expires_at = time.time() + 300

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope


class Token:
    def __init__(self, client_id, user, data):
        self.client_id, self.user = client_id, user
        self.access_token = data["access_token"]
        self.refresh_token = data.get("refresh_token")
        self.scope = data.get("scope", "")
        self.issued_at, self.expires_in = time.time(), data.get("expires_in", 3600)
        self.revoked = False

    def check_client(self, client):
        return client.get_client_id() == self.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() > self.issued_at + self.expires_in

    def is_revoked(self):
        return self.revoked

    def get_user(self):
        return self.user

    def get_client(self):
        return CLIENT


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def save_authorization_code(self, code, req):
        data = req.payload.data
        with LOCK:
            CODES[code] = AuthorizationCode(
                code, req.client.get_client_id(), req.user, req.payload.redirect_uri, req.payload.scope,
                data.get("code_challenge"), data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        with LOCK:
            item = CODES.get(code)
        if item and item.client_id == client.get_client_id() and item.expires_at > time.time():
            return item
        return None

    def delete_authorization_code(self, authorization_code):
        with LOCK:
            CODES.pop(authorization_code.code, None)
        COUNTS["code"] += 1

    def authenticate_user(self, authorization_code):
        return authorization_code.user


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def authenticate_refresh_token(self, refresh_token):
        with LOCK:
            for token in TOKENS:
                if token.refresh_token == refresh_token and not token.revoked:
                    return token
        return None

    def authenticate_user(self, credential):
        COUNTS["refresh"] += 1
        return credential.user

    def revoke_old_credential(self, credential):
        pass  # the refresh token is stable: exchanging it does not replace it


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

    def query_token(self, token_string, token_type_hint):
        with LOCK:
            for token in TOKENS:
                if token_string in (token.access_token, token.refresh_token):
                    return token
        return None

    def revoke_token(self, token, req):
        with LOCK:
            # Revoking a refresh token revokes every access token issued from it (one grant).
            for other in TOKENS:
                if other.user is token.user and other.client_id == token.client_id:
                    other.revoked = True


class Validator(BearerTokenValidator):
    def authenticate_token(self, token_string):
        with LOCK:
            for token in TOKENS:
                if token.access_token == token_string:
                    return token
        return None


def save_token(data, req):
    token = Token(req.client.get_client_id(), req.user, data)
    if token.refresh_token is None and getattr(req, "refresh_token", None) is not None:
        token.refresh_token = None  # an access token from a refresh: the grant's refresh token stays where it was
    with LOCK:
        TOKENS.append(token)


app = Flask(__name__)
CLIENT = None
server = AuthorizationServer()
protector = ResourceProtector()
protector.register_token_validator(Validator())
LOGIN_FORM = """<!doctype html><html><head><title>Stream TV sign in</title></head><body><h1>Sign in to Stream TV</h1>
<form method="post" action="/authorize?{query}"><label>User <input name="username"></label>
<label>Password <input type="password" name="password"></label><button type="submit">Sign in</button>
<button type="submit" name="deny" value="1">Cancel</button></form></body></html>"""


def issuer():
    return request.host_url.rstrip("/")


@app.get("/.well-known/openid-configuration")
def discovery():
    base = issuer()
    return jsonify({
        "issuer": base,
        "authorization_endpoint": base + "/authorize",
        "token_endpoint": base + "/token",
        "userinfo_endpoint": base + "/userinfo",
        "revocation_endpoint": base + "/revoke",
        "end_session_endpoint": base + "/logout",
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
        "scopes_supported": ["openid", "profile", "email", "offline_access"],
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": ["RS256"],
    })


@app.route("/authorize", methods=["GET", "POST"])
def authorize():
    if request.method == "GET":
        try:
            server.get_consent_grant(end_user=None)
        except Exception as error:  # an invalid request: the provider's own error page
            return Response("invalid authorization request: " + html.escape(str(error)), status=400)
        return LOGIN_FORM.format(query=html.escape(request.query_string.decode()))
    if request.form.get("deny"):
        return server.create_authorization_response(grant_user=None)
    name = request.form.get("username", "")
    user = USERS.get(name)
    if user is None or not secrets.compare_digest(request.form.get("password", ""), user["password"]):
        return Response("wrong user name or password", status=401)
    return server.create_authorization_response(grant_user=dict(user, name=name))


@app.post("/token")
def token():
    mode = MODE["token"]
    if mode == "fail":
        return Response("upstream unavailable", status=503)
    if mode == "malformed":
        return Response('{"access_token": "x", ', status=200, content_type="application/json")
    if mode == "slow":
        time.sleep(8)
    return server.create_token_response()


@app.post("/revoke")
def revoke():
    return server.create_endpoint_response(Revocation.ENDPOINT_NAME)


@app.get("/userinfo")
@protector()
def userinfo():
    user = current_token.user
    return jsonify({
        "sub": user["sub"], "preferred_username": user["name"], "household_id": user["household_id"],
        "postalCode": user["postalCode"], "maxRating": user["maxRating"], "channels": user["channels"],
    })


@app.get("/authz")
def authz():
    # The REST authorization form of Adobe's MVPD guide, on the user's behalf: a Bearer access token is required.
    header = request.headers.get("Authorization", "")
    with LOCK:
        token = next((t for t in TOKENS if "Bearer " + t.access_token == header), None)
    if token is None or token.is_revoked() or token.is_expired():
        return Response("invalid access token", status=401)
    user = token.user
    mrss = base64.b64decode(request.args.get("mrss", "")).decode()
    match = re.search(r"<title>([^<]*)</title>", mrss)
    channel = match.group(1) if match else ""
    if request.args.get("uuID") != user["sub"]:
        decision, obligation = "Deny", ""
    elif channel in user["channels"]:
        decision, obligation = "Permit", ""
    else:
        decision = "Deny"
        obligation = ('<xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">'
                      '<xacml:Obligation ObligationId="urn:tve:xacml:2.0:obligations:upgrade" FulfillOn="Deny"/>'
                      '</xacml:Obligations>')
    body = ('<Response xmlns="urn:oasis:names:tc:xacml:2.0:context:schema:os"><Result ResourceId="%s">'
            '<Decision>%s</Decision><Status><StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></Status>%s'
            '</Result></Response>') % (html.escape(channel), decision, obligation)
    return Response(body, content_type="text/xml; charset=utf-8")


@app.get("/logout")
def logout():
    target = request.args.get("post_logout_redirect_uri", "")
    if target and target in LOGOUT_URIS:
        state = request.args.get("state")
        return redirect(target + (("?state=" + urllib.parse.quote(state)) if state else ""))
    return "You are signed out of Stream TV."


@app.post("/control/token-endpoint")
def control():
    MODE["token"] = request.form.get("mode", "normal")
    return jsonify(MODE)


@app.get("/control/counts")
def counts():
    return jsonify(COUNTS)


@app.post("/control/revoke-user")
def revoke_user():
    # The MVPD ends a subscriber's grants (the user revoked the app, or the account closed).
    name = request.form.get("user", "")
    with LOCK:
        for token in TOKENS:
            if token.user.get("name") == name:
                token.revoked = True
    return jsonify({"revoked": name})


@app.get("/control/refresh-tokens")
def refresh_tokens():
    with LOCK:
        return jsonify([t.refresh_token for t in TOKENS if t.refresh_token])


LOGOUT_URIS = []


def main():
    global CLIENT
    # A parent that starts this from a thread with signals blocked (Foundation's Process) passes its mask on:
    # SIGTERM must stop the provider.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--logout-redirect-uri", default="")
    args = parser.parse_args()
    CLIENT = Client(args.client_id, args.client_secret, [args.redirect_uri])
    if args.logout_redirect_uri:
        LOGOUT_URIS.append(args.logout_redirect_uri)
    app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
    app.config["OAUTH2_TOKEN_EXPIRES_IN"] = {"authorization_code": 3600, "refresh_token": 3600}
    server.init_app(app, query_client=lambda cid: CLIENT if cid == CLIENT.client_id else None, save_token=save_token)
    server.register_grant(CodeGrant, [CodeChallenge(required=True)])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    http = make_server("127.0.0.1", 0, app, threaded=True)
    print("LISTENING %d" % http.server_port, flush=True)
    http.serve_forever()


if __name__ == "__main__":
    main()
