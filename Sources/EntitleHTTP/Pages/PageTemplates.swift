import EntitleDomain
import EntitleModel

/// The HTML templates of the service's pages (Mustache). Self-contained: inline CSS, no external assets, phone-friendly,
/// labelled fields, keyboard-usable. Each starts with `{{% CONTENT_TYPE: EntitleHTML}}`, the escaping of ``PageEscaping``.
package enum PageTemplates {
    package static let layout = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer"><title>{{title}} – Entitle</title>
        {{#refresh}}<meta http-equiv="refresh" content="0;url={{refresh}}">{{/refresh}}
        <style>
        body{margin:0;font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;background:#f3f4f6;color:#111827;font-size:17px;line-height:1.5}
        main{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:14px;box-shadow:0 2px 12px rgba(0,0,0,.08)}
        @media (max-width:32rem){main{margin:0;border-radius:0;min-height:100vh;box-sizing:border-box}}
        h1{font-size:1.45rem;margin:.2rem 0 1rem}
        label{display:block;font-weight:600;margin:1rem 0 .35rem}
        input[type=text],input[type=search]{width:100%;box-sizing:border-box;font-size:1.15rem;padding:.7rem;border:1px solid #9ca3af;border-radius:8px}
        input.code{text-transform:uppercase;letter-spacing:.25em;font-family:ui-monospace,monospace}
        button{margin-top:1.2rem;width:100%;padding:.8rem;font-size:1.05rem;font-weight:600;color:#fff;background:#1d4ed8;border:0;border-radius:8px;cursor:pointer}
        button:focus,a:focus,input:focus{outline:3px solid #f59e0b;outline-offset:2px}
        .error{background:#fef2f2;color:#991b1b;border:1px solid #fecaca;padding:.75rem;border-radius:8px}
        .ok{background:#ecfdf5;color:#065f46;border:1px solid #a7f3d0;padding:.75rem;border-radius:8px}
        ul.mvpds{list-style:none;padding:0;margin:1rem 0 0}
        ul.mvpds li{margin:.5rem 0}
        ul.mvpds button{display:flex;align-items:center;gap:1rem;background:#fff;color:#111827;border:1px solid #d1d5db;margin:0;text-align:left}
        ul.mvpds .logo{position:relative;flex:none;width:96px;height:32px;display:flex;align-items:center;justify-content:center}
        ul.mvpds img{position:absolute;inset:0;width:96px;height:32px;object-fit:contain;background:#fff}
        ul.mvpds .initials{width:40px;height:32px;line-height:32px;border-radius:6px;background:#e0e7ff;color:#3730a3;font-weight:700;font-size:.9rem;text-align:center;letter-spacing:.05em}
        form.search{display:flex;gap:.5rem;align-items:center}
        form.search input{flex:1}
        form.search button{width:auto;margin:0;padding:.55rem .9rem;font-size:.95rem;color:#1d4ed8;background:#fff;border:1px solid #9ca3af}
        .muted{color:#4b5563;font-size:.95rem}
        </style></head>
        <body><main>{{$body}}{{/body}}</main></body></html>
        """

    /// `GET /`: what runs here and where to go next (a page of its own, not the sign-in pages' layout).
    package static let landing = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Entitle service</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
        h1{font-size:1.5rem}code{background:#f3f4f6;padding:.1rem .3rem;border-radius:4px}</style></head><body><main>
        <h1>Entitle is running here</h1>
        <p>An Adobe Pass–compatible TV Everywhere authentication service: REST API v2 with Dynamic Client Registration,
        SAML 2.0 federation with TV providers (MVPDs), authorization decisions and short media tokens{{#demo}}, with the DemoMVPD mounted at <code>/demo-mvpd</code>{{/demo}}.</p>
        <ul id="links">
        {{#links}}
        <li><a href="{{path}}">{{title}}</a> — {{what}}</li>
        {{/links}}
        </ul>
        <p>Try it from a terminal: <code>entitle device login --server {{base}}</code> shows a code to enter on the activation page.</p>
        <p>Documentation: <code>README.md</code> and <code>docs/</code> (<code>rest-walkthrough.md</code>, <code>operator-guide.md</code>
        for administration, <code>access-enabler.md</code> for apps, <code>media-token-verifier.md</code> for video servers) in the Entitle source.</p>
        </main></body></html>
        """

    package static let activate = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Activate your device</h1>
        <p>Enter the code shown on your TV to sign in with your TV provider.</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="/activate">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="code">Activation code</label>
          <input class="code" type="text" id="code" name="code" value="{{code}}" autocomplete="off" autocapitalize="characters"
                 spellcheck="false" maxlength="16" required autofocus aria-describedby="code-help">
          <p id="code-help" class="muted">8 letters and digits, for example ABCD2345. Case does not matter.</p>
          <button type="submit">Continue</button>
        </form>
        {{/body}}{{/layout}}
        """

    package static let picker = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Choose your TV provider</h1>
        <p class="muted">Code <strong>{{code}}</strong> · {{requestorName}}</p>
        <label for="q">Search providers</label>
        <form class="search" method="get" action="/activate/providers" role="search">
          <input type="hidden" name="code" value="{{code}}">
          <input type="search" id="q" name="q" value="{{query}}" autocomplete="off">
          <button type="submit" id="search">Search</button>
        </form>
        <ul class="mvpds" id="mvpds">
        {{#mvpds}}
          <li data-name="{{displayName}}"><form method="post" action="/activate/select">
            <input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="code" value="{{code}}">
            <input type="hidden" name="mvpd" value="{{id}}">
            <button type="submit" aria-label="Sign in with {{displayName}}"><span class="logo"><span class="initials" aria-hidden="true">{{initials}}</span>{{#hasLogo}}<img src="{{logoUrl}}" alt="" onerror="this.remove()">{{/hasLogo}}</span>{{displayName}}</button>
          </form></li>
        {{/mvpds}}
        </ul>
        {{^mvpds}}<p class="error" role="alert">No provider matches “{{query}}”.</p>{{/mvpds}}
        <script>
        (function(){var q=document.getElementById('q');if(!q)return;q.addEventListener('input',function(){
          var v=q.value.toLowerCase();document.querySelectorAll('#mvpds li').forEach(function(li){
          li.style.display=li.getAttribute('data-name').toLowerCase().indexOf(v)>=0?'':'none';});});})();
        </script>
        {{/body}}{{/layout}}
        """

    package static let message = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>{{title}}</h1>
        <p class="{{kind}}" role="status">{{message}}</p>
        {{#next}}<p>{{next}}</p>{{/next}}
        {{#appLink}}<p><a id="return-to-app" href="{{appLink}}">Return to your app</a></p>{{/appLink}}
        {{#retry}}<p><a href="/activate">Enter another code</a></p>{{/retry}}
        {{/body}}{{/layout}}
        """

    /// The plain page of ``HTMLPage/message(title:message:status:)``, for the dead ends of the browser leg (bad sign-in
    /// links, signed out): a title and a message, no layout.
    package static let plainMessage = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}}</title><style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
        h1{font-size:1.5rem}</style></head><body><main><h1>{{title}}</h1><p>{{message}}</p></main></body></html>
        """
}
