#!/usr/bin/env python3
"""Plays a person in a browser for the REST walk-through: opens a sign-in URL of the Entitle service (or the activation
page `entitle device login` prints, `/activate?code=…`, whose code it submits), posts the page's auto-posting SAML
request to the MVPD (as a browser's script does), signs in at the MVPD's login form, posts the SAML response back, and
prints where the browser ended (the page's title and message, or the app's redirect URL). Exit status 0 when the
sign-in completed.

    python3 scripts/play-login.py URL USER PASSWORD
"""
import html
import html.parser
import http.cookiejar
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class Forms(html.parser.HTMLParser):
    """The forms of a page: action, method and fields."""

    def __init__(self):
        super().__init__()
        self.forms, self.title, self.message, self._in = [], "", "", None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action", ""), "method": a.get("method", "get").lower(), "fields": {}})
        elif tag == "input" and self.forms and a.get("name"):
            self.forms[-1]["fields"][a["name"]] = a.get("value", "")
        elif tag in ("h1", "p") and not self.message:
            self._in = tag

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "h1":
            self.title += data
        elif self._in == "p" and self.title and not self.message:
            self.message = data.strip()


class StopAtAppScheme(urllib.request.HTTPRedirectHandler):
    """Follows http(s) redirects; a redirect to an app's custom scheme ends the browser leg, as in an app's web view."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if not newurl.startswith(("http://", "https://")):
            raise AppRedirect(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class AppRedirect(Exception):
    pass


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    url, user, password = sys.argv[1:]
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), StopAtAppScheme())
    data = None
    for _ in range(10):
        try:
            with opener.open(urllib.request.Request(url, data=data)) as response:
                url, body = response.geturl(), response.read().decode("utf-8", "replace")
        except AppRedirect as redirect:
            print(f"The browser was sent to the app: {redirect}")
            return 0
        except urllib.error.HTTPError as error:
            body = error.read().decode("utf-8", "replace")
            page = Forms(); page.feed(body)
            sys.exit(f"HTTP {error.code} at {error.geturl()}: {page.title.strip()} {page.message}")
        page = Forms()
        page.feed(body)
        form = next((f for f in page.forms if {"SAMLRequest", "SAMLResponse", "password", "code"} & set(f["fields"])), None)
        if form is None:
            handover = re.search(r'<meta http-equiv="refresh" content="0;url=([^"]+)"', body)
            print(page.title.strip() + (": " + page.message if page.message else ""))
            if handover:
                print("The page hands the browser over to: " + html.unescape(handover.group(1)))
            return 0 if "signed in" in body.lower() else 1
        fields = dict(form["fields"])
        if "password" in fields:
            fields.update(username=user, password=password)
        url = urllib.parse.urljoin(url, form["action"] or url)
        data = urllib.parse.urlencode(fields).encode()
    sys.exit("too many pages")


if __name__ == "__main__":
    sys.exit(main())
