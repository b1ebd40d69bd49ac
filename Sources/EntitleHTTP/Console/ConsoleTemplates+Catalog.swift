import EntitleDomain
import EntitleModel

/// The console's pages of requestors (their integrations, apps, clients, degradation rules and TempPass) and MVPDs.
extension ConsoleTemplates {
    package static let requestors = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Requestors</h1>
        <section class="card"><table id="requestors">
        <caption class="muted">Every requestor (channel) of this service; open one for its integrations, apps and clients.</caption>
        <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Domains</th><th scope="col">Integrations</th><th scope="col">Status</th></tr></thead>
        <tbody>
        {{#requestors}}<tr><td><a href="/console/requestors/{{id}}">{{id}}</a></td><td>{{name}}</td><td>{{domains}}</td>
        <td>{{enabledIntegrations}} of {{integrationCount}} enabled</td>
        <td>{{#disabled}}<span class="badge off">disabled</span>{{/disabled}}{{^disabled}}<span class="badge on">enabled</span>{{/disabled}}</td></tr>
        {{/requestors}}
        {{^requestors}}<tr><td colspan="5">No requestor yet: add one with <code>entitle admin requestor add</code>.</td></tr>{{/requestors}}
        </tbody></table></section>
        {{/body}}{{/layout}}
        """

    package static let requestor = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Requestor {{requestor.id}}</h1>
        <p>{{requestor.name}} · domains: {{requestor.domains}} · at most {{requestor.maxResources}} resources per preauthorization
        {{#requestor.disabled}} · <span class="badge off">disabled</span>{{/requestor.disabled}}</p>
        <p id="requestor-defaults">For integrations that set none: sign-ins last {{requestor.profileLifetime}}; MVPD
        answers are kept {{requestor.authorizationTTL}}; preflight {{requestor.preflight}}.</p>

        <h2 id="integrations-heading">Integrations</h2>
        <section class="card" aria-labelledby="integrations-heading"><table id="integrations">
        <thead><tr><th scope="col">MVPD</th><th scope="col">Name in this integration</th><th scope="col">Status</th>{{#mayChange}}<th scope="col">Change</th>{{/mayChange}}</tr></thead>
        <tbody>
        {{#integrations}}<tr id="integration-{{mvpd}}"><td><a href="/console/mvpds/{{mvpd}}">{{mvpd}}</a></td><td>{{displayName}}</td>
        <td>{{#enabled}}<span class="badge on">enabled</span>{{/enabled}}{{^enabled}}<span class="badge off">disabled</span>{{/enabled}}</td>
        {{#mayChange}}<td><form class="inline" method="post" action="/console/requestors/{{requestor.id}}/integrations/{{mvpd}}">
          {{>why}}<input type="hidden" name="enabled" value="{{#enabled}}false{{/enabled}}{{^enabled}}true{{/enabled}}">
          <button class="small{{#enabled}} danger{{/enabled}}" type="submit">{{#enabled}}Disable{{/enabled}}{{^enabled}}Enable{{/enabled}}</button></form></td>{{/mayChange}}</tr>
        {{/integrations}}
        {{^integrations}}<tr><td colspan="4">No MVPD is integrated with this requestor yet.</td></tr>{{/integrations}}
        </tbody></table></section>

        <h2 id="apps-heading">Apps (software statements)</h2>
        <section class="card" aria-labelledby="apps-heading"><table id="statements">
        <thead><tr><th scope="col">Name</th><th scope="col">Software id</th><th scope="col">Issued</th><th scope="col">Status</th><th scope="col">Statement</th>{{#mayChange}}<th scope="col">Change</th>{{/mayChange}}</tr></thead>
        <tbody>
        {{#statements}}<tr id="statement-{{softwareID}}"><td>{{name}}</td><td><code>{{softwareID}}</code></td><td>{{issuedAt}}</td>
        <td>{{#revoked}}<span class="badge off">revoked</span>{{/revoked}}{{^revoked}}<span class="badge on">active</span>{{/revoked}}</td>
        <td>{{^revoked}}<a href="/console/statements/{{softwareID}}/download" download>Download</a>{{/revoked}}</td>
        {{#mayChange}}<td>{{^revoked}}<form class="inline" method="post" action="/console/statements/{{softwareID}}/revoke?requestor={{requestorID}}">{{>why}}
          <button class="small danger" type="submit">Revoke</button></form>{{/revoked}}</td>{{/mayChange}}</tr>
        {{/statements}}
        {{^statements}}<tr><td colspan="6">No software statement issued yet.</td></tr>{{/statements}}
        </tbody></table>
        {{#mayChange}}<form method="post" action="/console/requestors/{{requestor.id}}/statements" id="issue-statement">
          <fieldset><legend>Issue a software statement</legend>
          <label for="statement-name">App name</label><input type="text" id="statement-name" name="name" required maxlength="200">
          <label for="statement-redirects">Redirect URIs (space-separated; at least one: the app's, e.g. adobepass://ios.app)</label><input type="text" id="statement-redirects" name="redirectURIs" required>
          {{#form.issue-statement}}{{>description}}{{/form.issue-statement}}<button type="submit">Issue</button></fieldset></form>{{/mayChange}}
        </section>

        <h2 id="clients-heading">Registered clients</h2>
        <section class="card" aria-labelledby="clients-heading"><table id="clients">
        <thead><tr><th scope="col">Client id</th><th scope="col">Software id</th><th scope="col">Registered</th><th scope="col">Status</th>{{#mayChange}}<th scope="col">Change</th>{{/mayChange}}</tr></thead>
        <tbody>
        {{#clients}}<tr id="client-{{clientID}}"><td><code>{{clientID}}</code></td><td><code>{{softwareID}}</code></td><td>{{issuedAt}}</td>
        <td>{{#revoked}}<span class="badge off">revoked</span>{{/revoked}}{{^revoked}}<span class="badge on">active</span>{{/revoked}}</td>
        {{#mayChange}}<td>{{^revoked}}<form class="inline" method="post" action="/console/clients/{{clientID}}/revoke?requestor={{requestor}}">{{>why}}
          <button class="small danger" type="submit">Revoke</button></form>{{/revoked}}</td>{{/mayChange}}</tr>
        {{/clients}}
        {{^clients}}<tr><td colspan="5">No client has registered yet.</td></tr>{{/clients}}
        </tbody></table></section>

        <h2 id="degradation-heading">Degraded access</h2>
        <section class="card" aria-labelledby="degradation-heading"><table id="degradation">
        <thead><tr><th scope="col">MVPD</th><th scope="col">Rule</th><th scope="col">From</th><th scope="col">Until</th>{{#mayChange}}<th scope="col">Change</th>{{/mayChange}}</tr></thead>
        <tbody>
        {{#rules}}<tr><td>{{mvpd}}</td><td>{{rule}}</td><td>{{start}}</td><td>{{end}}</td>
        {{#mayChange}}<td><form class="inline" method="post" action="/console/requestors/{{requestor.id}}/degradation/remove">{{>why}}
          <input type="hidden" name="mvpd" value="{{mvpd}}"><input type="hidden" name="rule" value="{{rule}}">
          <button class="small danger" type="submit">Remove</button></form></td>{{/mayChange}}</tr>
        {{/rules}}
        {{^rules}}<tr><td colspan="5">No degradation rule.</td></tr>{{/rules}}
        </tbody></table>
        {{#mayChange}}<form method="post" action="/console/requestors/{{requestor.id}}/degradation" id="set-degradation">
          <fieldset><legend>Set a degradation rule during an MVPD outage</legend>
          <label for="degradation-mvpd">MVPD</label><select id="degradation-mvpd" name="mvpd" required>{{#integrations}}<option value="{{mvpd}}">{{mvpd}}</option>{{/integrations}}</select>
          <label for="degradation-rule">Rule</label><select id="degradation-rule" name="rule" required>
            <option value="authz-all">authz-all: every signed-in user is authorized without asking the MVPD</option>
            <option value="authn-all">authn-all: everyone is signed in and authorized (a sign-in outage)</option>
            <option value="authz-none">authz-none: nobody is authorized</option></select>
          <label for="degradation-minutes">For how many minutes, from now</label><input type="number" id="degradation-minutes" name="minutes" value="60" min="1" max="10080" required>
          {{#form.set-degradation}}{{>description}}{{/form.set-degradation}}<button type="submit">Set rule</button></fieldset></form>{{/mayChange}}
        </section>

        <h2 id="authorization-ttl-heading">Authorization answers kept</h2>
        <section class="card" aria-labelledby="authorization-ttl-heading"><table id="authorization-ttls">
        <thead><tr><th scope="col">MVPD</th><th scope="col">For</th><th scope="col">Seconds</th></tr></thead>
        <tbody>
        {{#authorizationTTLs}}<tr><td>{{mvpd}}</td><td>{{scope}}</td><td>{{seconds}}</td></tr>{{/authorizationTTLs}}
        {{^authorizationTTLs}}<tr><td colspan="3">As the requestor's default or the service's.</td></tr>{{/authorizationTTLs}}
        </tbody></table>
        {{#mayChange}}<form method="post" action="/console/requestors/{{requestor.id}}/authorization-ttl" id="set-authorization-ttl">
          <fieldset><legend>Keep an MVPD's authorization answers for this requestor</legend>
          <label for="ttl-mvpd">MVPD</label><select id="ttl-mvpd" name="mvpd" required>{{#integrations}}<option value="{{mvpd}}">{{mvpd}}</option>{{/integrations}}</select>
          <label for="ttl-seconds">Seconds (0: ask the MVPD every time; at most 604800)</label><input type="number" id="ttl-seconds" name="seconds" value="300" min="0" max="604800" required>
          {{#form.set-authorization-ttl}}{{>description}}{{/form.set-authorization-ttl}}<button type="submit">Set</button></fieldset></form>{{/mayChange}}
        </section>

        <h2 id="media-token-heading">Media tokens and legacy key pairs</h2>
        <section class="card" aria-labelledby="media-token-heading">
        <p>Media tokens are signed with <strong id="media-token-algorithm">{{mediaTokenAlgorithm}}</strong>.</p>
        {{#mayChange}}<form method="post" action="/console/requestors/{{requestor.id}}/media-token-algorithm" id="set-media-token-algorithm">
          <fieldset><legend>Sign this requestor's media tokens with</legend>
          <label for="media-token-algorithm-choice">Algorithm (ECDSA and Ed25519: the key is published first, RSA signs until it is promoted)</label>
          <select id="media-token-algorithm-choice" name="algorithm" required>{{#algorithms}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/algorithms}}</select>
          {{#form.set-media-token-algorithm}}{{>description}}{{/form.set-media-token-algorithm}}<button type="submit">Set</button></fieldset></form>{{/mayChange}}
        <table id="legacy-keys">
        <thead><tr><th scope="col">Legacy key pair (REST v1, adobe-services)</th><th scope="col">Made</th><th scope="col">Status</th>{{#mayChange}}<th scope="col">Change</th>{{/mayChange}}</tr></thead>
        <tbody>
        {{#legacyKeys}}<tr><td><code>{{publicKey}}</code></td><td>{{createdAt}}</td><td>{{#revoked}}revoked{{/revoked}}{{^revoked}}active{{/revoked}}</td>
        {{#mayChange}}<td>{{^revoked}}<form class="inline" method="post" action="/console/requestors/{{requestor.id}}/legacy-keys/revoke">{{>why}}
          <input type="hidden" name="publicKey" value="{{publicKey}}"><button class="small danger" type="submit">Revoke</button></form>{{/revoked}}</td>{{/mayChange}}</tr>
        {{/legacyKeys}}
        {{^legacyKeys}}<tr><td colspan="4">No legacy key pair (<code>entitle admin legacy-key issue</code> makes one).</td></tr>{{/legacyKeys}}
        </tbody></table></section>

        {{#mayChange}}<h2 id="temppass-heading">TempPass</h2>
        <section class="card" aria-labelledby="temppass-heading">
        <form method="post" action="/console/requestors/{{requestor.id}}/temppass/reset" id="reset-temppass">
          <fieldset><legend>Reset the TempPass of a device</legend>
          <label for="temppass-mvpd">TempPass MVPD</label><input type="text" id="temppass-mvpd" name="mvpd" value="TempPass" required>
          <label for="temppass-device">Device id (as the app sends it)</label><input type="text" id="temppass-device" name="device" required>
          {{#form.reset-temppass}}{{>description}}{{/form.reset-temppass}}<button type="submit">Reset</button></fieldset></form>
        </section>{{/mayChange}}
        {{/body}}{{/layout}}
        """

    package static let mvpds = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>MVPDs</h1>
        <section class="card"><table id="mvpds">
        <thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Sign-in</th><th scope="col">Authorization</th><th scope="col">Status</th></tr></thead>
        <tbody>
        {{#mvpds}}<tr><td><a href="/console/mvpds/{{id}}">{{id}}</a></td><td>{{name}}</td><td>{{kind}}</td><td>{{authorizationProtocol}}</td>
        <td>{{#disabled}}<span class="badge off">disabled</span>{{/disabled}}{{^disabled}}<span class="badge on">enabled</span>{{/disabled}}</td></tr>
        {{/mvpds}}
        {{^mvpds}}<tr><td colspan="5">No MVPD yet.</td></tr>{{/mvpds}}
        </tbody></table></section>
        {{#mayChange}}<section class="card">
        <form method="post" action="/console/mvpds" enctype="multipart/form-data" id="add-mvpd">
          <fieldset><legend>Add a SAML MVPD</legend>
          <p class="muted">Send the MVPD our SP metadata (<a href="/sp/saml/metadata">/sp/saml/metadata</a>); from it, get its IdP metadata.</p>
          <label for="mvpd-id">Id (letters, digits, - and _)</label><input type="text" id="mvpd-id" name="id" required maxlength="64">
          <label for="mvpd-name">Display name</label><input type="text" id="mvpd-name" name="name" required maxlength="200">
          <label for="mvpd-metadata-file">IdP metadata file</label><input type="file" id="mvpd-metadata-file" name="metadataFile" accept=".xml,application/samlmetadata+xml,text/xml">
          <label for="mvpd-metadata-url">or its URL</label><input type="url" id="mvpd-metadata-url" name="metadataURL" placeholder="https://idp.example.com/metadata">
          <label for="mvpd-logo">Logo URL (optional)</label><input type="url" id="mvpd-logo" name="logoURL">
          <label for="mvpd-requestors">Integrate with requestors (space-separated ids)</label><input type="text" id="mvpd-requestors" name="requestors">
          <label for="mvpd-protocol">Authorization protocol</label><select id="mvpd-protocol" name="authorizationProtocol">
            <option value="entitle-json" selected>Entitle JSON</option><option value="xacml">XACML 2.0</option><option value="rest">REST</option>
            <option value="none">none: every signed-in subscriber is authorized (no MVPD call)</option></select>
          <label for="mvpd-authz-url">Authorization URL (for XACML, REST or Entitle JSON)</label><input type="url" id="mvpd-authz-url" name="authorizationURL">
          {{#form.add-mvpd}}{{>description}}{{/form.add-mvpd}}<button type="submit">Add MVPD</button></fieldset></form>
        </section>
        <section class="card">
        <form method="post" action="/console/oauth2-mvpds" id="add-oauth2-mvpd">
          <fieldset><legend>Add an OAuth 2.0 MVPD</legend>
          <p class="muted">Register our redirect URI with the MVPD: <code>{{oauth2RedirectURI}}</code>. Give its OpenID issuer (its endpoints are read from the discovery document) or the three endpoints.</p>
          <label for="oauth2-id">Id (letters, digits, - and _)</label><input type="text" id="oauth2-id" name="id" required maxlength="64">
          <label for="oauth2-name">Display name</label><input type="text" id="oauth2-name" name="name" required maxlength="200">
          <label for="oauth2-issuer">OpenID issuer</label><input type="url" id="oauth2-issuer" name="issuer" placeholder="https://login.mvpd.example">
          <label for="oauth2-authorize">or its authorization endpoint</label><input type="url" id="oauth2-authorize" name="authorizeURL">
          <label for="oauth2-token">Token endpoint</label><input type="url" id="oauth2-token" name="tokenURL">
          <label for="oauth2-userinfo">Userinfo endpoint</label><input type="url" id="oauth2-userinfo" name="userinfoURL">
          <label for="oauth2-logout">Logout endpoint (optional)</label><input type="url" id="oauth2-logout" name="logoutURL">
          <label for="oauth2-client-id">Our client id at the MVPD</label><input type="text" id="oauth2-client-id" name="clientID" required autocomplete="off">
          <label for="oauth2-client-secret">Our client secret (stored encrypted, never shown)</label><input type="password" id="oauth2-client-secret" name="clientSecret" required autocomplete="new-password">
          <label for="oauth2-scopes">Scopes (space-separated, optional)</label><input type="text" id="oauth2-scopes" name="scopes">
          <label for="oauth2-claim">Userinfo claim that is the user id (default sub)</label><input type="text" id="oauth2-claim" name="userIDClaim">
          <label for="oauth2-logo">Logo URL (optional)</label><input type="url" id="oauth2-logo" name="logoURL">
          <label for="oauth2-requestors">Integrate with requestors (space-separated ids)</label><input type="text" id="oauth2-requestors" name="requestors">
          <label for="oauth2-protocol">Authorization protocol</label><select id="oauth2-protocol" name="authorizationProtocol">
            <option value="entitle-json" selected>Entitle JSON</option><option value="xacml">XACML 2.0</option><option value="rest">REST</option>
            <option value="none">none: every signed-in subscriber is authorized (no MVPD call)</option></select>
          <label for="oauth2-authz-url">Authorization URL (for XACML, REST or Entitle JSON)</label><input type="url" id="oauth2-authz-url" name="authorizationURL">
          {{#form.add-oauth2-mvpd}}{{>description}}{{/form.add-oauth2-mvpd}}<button type="submit">Add OAuth 2.0 MVPD</button></fieldset></form>
        </section>{{/mayChange}}
        {{/body}}{{/layout}}
        """

    package static let mvpd = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>MVPD {{mvpd.id}}</h1>
        <section class="card"><table id="mvpd-settings"><tbody>
        <tr><th scope="row">Name</th><td>{{mvpd.name}}</td></tr>
        <tr><th scope="row">Sign-in</th><td>{{mvpd.kind}}{{#mvpd.entityID}} · entity id <code>{{mvpd.entityID}}</code>{{/mvpd.entityID}}</td></tr>
        <tr><th scope="row">Single sign-on</th><td><code>{{mvpd.singleSignOnURL}}</code></td></tr>
        <tr><th scope="row">Signing certificates</th><td>{{mvpd.signingCertificates}}</td></tr>
        <tr><th scope="row">Authorization</th><td>{{mvpd.authorizationProtocol}} <code>{{mvpd.authorizationURL}}</code></td></tr>
        <tr><th scope="row">Logo</th><td><code>{{mvpd.logoURL}}</code></td></tr>
        <tr><th scope="row">Preflight</th><td><ul id="mvpd-preflight">{{#preflight}}<li>{{requestor}}: {{#lineup}}by channel lineup, attribute <code>{{lineup}}</code>{{/lineup}}{{^lineup}}asks the MVPD{{#maxResources}}, up to {{maxResources}} resources per call{{/maxResources}}{{/lineup}}</li>{{/preflight}}</ul></td></tr>
        <tr><th scope="row">Status</th><td>{{#disabled}}<span class="badge off">disabled</span>{{/disabled}}{{^disabled}}<span class="badge on">enabled</span>{{/disabled}}</td></tr>
        </tbody></table></section>
        {{#mayChange}}<section class="card">
        <form method="post" action="/console/mvpds/{{mvpd.id}}" enctype="multipart/form-data" id="edit-mvpd">
          <fieldset><legend>Edit</legend>
          <label for="edit-name">Display name</label><input type="text" id="edit-name" name="name" value="{{mvpd.name}}" maxlength="200">
          <label for="edit-logo">Logo URL</label><input type="url" id="edit-logo" name="logoURL" value="{{mvpd.logoURL}}">
          <label for="edit-ttl">Profile lifetime, seconds</label><input type="number" id="edit-ttl" name="profileTTLSeconds" value="{{profileTTLSeconds}}" min="60">
          <label class="check"><input type="checkbox" name="requiresSafariViewController"{{#flags.requiresSafariViewController}} checked{{/flags.requiresSafariViewController}}> Sign-in needs SFSafariViewController</label>
          <label class="check"><input type="checkbox" name="enablePlatformServices"{{#flags.enablePlatformServices}} checked{{/flags.enablePlatformServices}}> Apple single sign-on (platform services)</label>
          <label class="check"><input type="checkbox" name="displayInPlatformPicker"{{#flags.displayInPlatformPicker}} checked{{/flags.displayInPlatformPicker}}> Shown in Apple's provider picker</label>
          <label for="edit-boarding">Apple boarding status</label><select id="edit-boarding" name="boardingStatus">
            <option value="">none</option><option value="SUPPORTED"{{#flags.supported}} selected{{/flags.supported}}>SUPPORTED</option>
            <option value="PICKER"{{#flags.picker}} selected{{/flags.picker}}>PICKER</option>
            <option value="NOT_SUPPORTED"{{#flags.notSupported}} selected{{/flags.notSupported}}>NOT_SUPPORTED</option></select>
          <label for="edit-protocol">Authorization protocol</label><select id="edit-protocol" name="authorizationProtocol">
            <option value="none"{{#flags.protocolNone}} selected{{/flags.protocolNone}}>none: every signed-in subscriber is authorized</option>
            <option value="xacml"{{#flags.protocolXACML}} selected{{/flags.protocolXACML}}>XACML 2.0</option>
            <option value="rest"{{#flags.protocolREST}} selected{{/flags.protocolREST}}>REST</option>
            <option value="entitle-json"{{#flags.protocolJSON}} selected{{/flags.protocolJSON}}>Entitle JSON</option></select>
          <label for="edit-authz-url">Authorization URL (for XACML, REST or Entitle JSON)</label><input type="url" id="edit-authz-url" name="authorizationURL" value="{{mvpd.authorizationURL}}">
          <label for="edit-metadata-file">New IdP metadata file (optional)</label><input type="file" id="edit-metadata-file" name="metadataFile" accept=".xml,application/samlmetadata+xml,text/xml">
          <label for="edit-metadata-url">or its URL</label><input type="url" id="edit-metadata-url" name="metadataURL">
          {{#form.edit-mvpd}}{{>description}}{{/form.edit-mvpd}}<button type="submit">Save</button></fieldset></form>
        <form method="post" action="/console/mvpds/{{mvpd.id}}/preflight" id="preflight-mvpd">
          <fieldset><legend>Preflight of one integration</legend>
          <label for="preflight-requestor">Requestor</label><input type="text" id="preflight-requestor" name="requestor" required maxlength="64">
          <label for="preflight-mode">Preauthorize answered</label><select id="preflight-mode" name="preflightMode">
            <option value="mvpd" selected>by asking the MVPD</option>
            {{#offersLineup}}<option value="lineup">by the channel lineup in the MVPD's SAML assertion (no MVPD call)</option>{{/offersLineup}}</select>
          {{#offersLineup}}<label for="preflight-attribute">Lineup attribute (with lineup)</label><input type="text" id="preflight-attribute" name="lineupAttribute" placeholder="authorized_resources" maxlength="256">{{/offersLineup}}
          {{#form.preflight-mvpd}}{{>description}}{{/form.preflight-mvpd}}<button type="submit">Save preflight</button></fieldset></form>
        <form method="post" action="/console/mvpds/{{mvpd.id}}/{{#disabled}}enable{{/disabled}}{{^disabled}}disable{{/disabled}}" id="toggle-mvpd">
          <fieldset><legend>{{#disabled}}Enable{{/disabled}}{{^disabled}}Disable{{/disabled}} this MVPD for every requestor</legend>
          {{#form.toggle-mvpd}}{{>description}}{{/form.toggle-mvpd}}<button type="submit"{{^disabled}} class="danger"{{/disabled}}>{{#disabled}}Enable{{/disabled}}{{^disabled}}Disable{{/disabled}}</button></fieldset></form>
        <form method="post" action="/console/mvpds/{{mvpd.id}}/remove" id="remove-mvpd">
          <fieldset><legend>Remove this MVPD and its integrations</legend>
          {{#form.remove-mvpd}}{{>description}}{{/form.remove-mvpd}}<button type="submit" class="danger">Remove</button></fieldset></form>
        </section>{{/mayChange}}
        {{/body}}{{/layout}}
        """
}
