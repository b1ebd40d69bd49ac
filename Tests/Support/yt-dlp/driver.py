"""yt-dlp's Adobe Pass client, resumed from its cache, against a local Entitle (the test of issue 39 point 4).

yt-dlp's own code runs unchanged; only the host changes: the service-provider template and every request to
https://sp.auth.adobe.com go to BASE_URL. The cache (section `ap-mvpd`, key the requestor id) is seeded with the
tokens of an earlier run: `{"authn_token": …}` and, when given, `{<resource guid>: authz_token}`. Then
`_extract_mvpd_auth` runs as on yt-dlp's second run: with both tokens it posts `shortAuthorize`; with only the AuthN
token, `authorize` and then `shortAuthorize`.

    python driver.py BASE_URL REQUESTOR RESOURCE TOKENS_JSON CACHE_DIR

TOKENS_JSON is a file with `{"authn_token": "…", "authz_token": "…" (optional)}`. Every request yt-dlp makes is
printed to standard error as `REQUEST <method> <path> authorization=<present|absent>`; the media token yt-dlp
returns is printed to standard output as `MEDIA_TOKEN <token>`; a failure as `FAILED <message>` (exit status 1).
"""
import json
import sys

from yt_dlp import YoutubeDL
from yt_dlp.extractor.adobepass import AdobePassIE
from yt_dlp.networking import Request

ADOBE = 'https://sp.auth.adobe.com'


def main():
    base, requestor, resource, tokens_file, cache_dir = sys.argv[1:6]
    with open(tokens_file) as f:
        tokens = json.load(f)

    # The host, and only the host.
    AdobePassIE._SERVICE_PROVIDER_TEMPLATE = base + '/adobe-services/%s'
    ydl = YoutubeDL({'cachedir': cache_dir, 'quiet': True, 'no_warnings': True, 'noprogress': True})
    send = ydl.urlopen

    def urlopen(req):
        if isinstance(req, str):
            req = Request(req)
        if req.url.startswith(ADOBE + '/'):
            req.url = base + req.url[len(ADOBE):]
        path = req.url[len(base):] if req.url.startswith(base) else req.url
        present = any(name.lower() == 'authorization' for name in req.headers)
        print(f'REQUEST {req.method} {path.split("?")[0]} authorization={"present" if present else "absent"}', file=sys.stderr)
        return send(req)

    ydl.urlopen = urlopen

    # The cache of the earlier run.
    cached = {'authn_token': tokens['authn_token']}
    guid = resource
    if tokens.get('authz_token'):
        cached[guid] = tokens['authz_token']
    ydl.cache.store(AdobePassIE._MVPD_CACHE, requestor, cached)

    ie = AdobePassIE(ydl)
    try:
        token = ie._extract_mvpd_auth(base + '/watch', 'video', requestor, resource, software_statement=None)
    except Exception as error:  # noqa: BLE001 - the test reads what went wrong
        print(f'FAILED {type(error).__name__}: {error}')
        return 1
    print(f'MEDIA_TOKEN {token}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
