import EntitleDomain
import EntitleModel

/// The operator console's page frame and sign-in (Mustache, escaped by ``PageEscaping``). Styles and scripts are files
/// under `/console/assets/` (the console's Content-Security-Policy allows nothing inline). Every change form carries
/// the session's CSRF token and asks why the change is made (recorded in the changes log); forms are shown only to an
/// operator whose role may change, and the server checks the role again.
package enum ConsoleTemplates {
    package static let layout = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer"><title>{{title}} – Entitle console</title>
        <link rel="stylesheet" href="/console/assets/console.css"></head>
        <body><a class="skip" href="#main">Skip to content</a>
        <header><nav aria-label="Console">
          <a href="/console/requestors"{{#navRequestors}} aria-current="page"{{/navRequestors}}>Requestors</a>
          <a href="/console/mvpds"{{#navMVPDs}} aria-current="page"{{/navMVPDs}}>MVPDs</a>
          <a href="/console/keys"{{#navKeys}} aria-current="page"{{/navKeys}}>Keys</a>
          <a href="/console/operators"{{#navOperators}} aria-current="page"{{/navOperators}}>Operators</a>
          <a href="/console/changes"{{#navChanges}} aria-current="page"{{/navChanges}}>Changes log</a>
          <a href="/console/reports"{{#navReports}} aria-current="page"{{/navReports}}>Reports</a>
          <span class="who" id="who">{{username}} · {{role}}</span>
          <form method="post" action="/console/sign-out"><input type="hidden" name="csrf" value="{{csrf}}"><button type="submit">Sign out</button></form>
        </nav></header>
        <main id="main">
        {{#flash}}<p class="flash {{kind}}" role="{{#error}}alert{{/error}}{{^error}}status{{/error}}" id="flash">{{text}}</p>{{/flash}}
        {{^mayChange}}<p class="notice" id="read-only">Your role is read-only: you see everything and can change nothing.</p>{{/mayChange}}
        {{$body}}{{/body}}
        </main>
        {{$scripts}}{{/scripts}}
        </body></html>
        """

    /// The hidden CSRF field and the "why" field of a compact change form (a row's button).
    package static let why = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="text" name="description" required maxlength="500" placeholder="Why? (changes log)" aria-label="Why this change is made (recorded in the changes log)">
        """

    /// The hidden CSRF field and the labelled "why" field of a full change form; `formID` makes its id unique.
    package static let description = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="{{formID}}-description">Why this change is made (recorded in the changes log)</label>
        <input type="text" id="{{formID}}-description" name="description" required maxlength="500">
        """

    package static let signIn = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer"><title>Sign in – Entitle console</title>
        <link rel="stylesheet" href="/console/assets/console.css"></head>
        <body><main id="main"><div class="signin">
        <h1>Entitle console</h1>
        {{#error}}<p class="flash error" role="alert" id="flash">{{error}}</p>{{/error}}
        <form method="post" action="/console/sign-in">
          <input type="hidden" name="login" value="{{login}}">
          <label for="username">Operator name</label>
          <input type="text" id="username" name="username" value="{{username}}" autocomplete="username" required autofocus>
          <label for="password">Password</label>
          <input type="password" id="password" name="password" autocomplete="current-password" required>
          <button type="submit">Sign in</button>
        </form>
        <p class="muted">Operator accounts are created with <code>entitle admin operator add</code>.</p>
        </div></main></body></html>
        """

    package static let message = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>{{title}}</h1>
        <p class="flash error" role="alert" id="problem">{{message}}</p>
        <p><a href="{{back}}">Back</a></p>
        {{/body}}{{/layout}}
        """
}
