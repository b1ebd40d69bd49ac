import EntitleDomain
import EntitleModel

/// The console's pages of keys, the changes log and reports.
extension ConsoleTemplates {
    package static let keys = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Keys</h1>
        <p class="muted">Keys sign media tokens, software statements and our SAML requests. A rotated key is published at once,
        signs after a delay, and the one it replaces stays published for verification for 24 hours. Private keys are never shown.</p>
        {{#purposes}}
        <section class="card" aria-labelledby="key-{{purpose}}" id="purpose-{{purpose}}">
        <h2 id="key-{{purpose}}">{{purpose}}</h2>
        <table><thead><tr><th scope="col">Key id</th><th scope="col">State</th><th scope="col">Created</th><th scope="col">Signs from</th><th scope="col">Retires</th></tr></thead>
        <tbody>{{#keys}}<tr><td><code>{{kid}}</code></td><td>{{state}}</td><td>{{createdAt}}</td><td>{{signsFrom}}</td><td>{{retiredAt}}</td></tr>{{/keys}}
        {{^keys}}<tr><td colspan="5">No key yet (one is made when it is first needed).</td></tr>{{/keys}}</tbody></table>
        <p class="notice" id="impact-{{purpose}}"><strong>What a rotation affects:</strong> {{impact}}</p>
        {{#mayChange}}<form method="post" action="/console/keys/{{purpose}}/rotate">
          <input type="hidden" name="csrf" value="{{csrf}}">
          <label for="rotate-{{purpose}}-delay">Seconds before the new key signs</label>
          <input type="number" id="rotate-{{purpose}}-delay" name="promoteAfter" value="{{defaultDelay}}" min="0" max="2592000" required>
          <label for="rotate-{{purpose}}-description">Why this change is made (recorded in the changes log)</label>
          <input type="text" id="rotate-{{purpose}}-description" name="description" required maxlength="500">
          <label class="check"><input type="checkbox" name="confirm" required> I have read what this rotation affects</label>
          <button type="submit" class="danger">Rotate the {{purpose}} key</button></form>{{/mayChange}}
        </section>
        {{/purposes}}
        {{/body}}{{/layout}}
        """

    package static let operators = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Operators</h1>
        <p class="muted">The accounts of this console and the admin API. Five failed sign-ins for an account from one address lock
        it from that address for 15 minutes (other addresses are not affected); twenty from one address lock that address.
        Unlock forgets an account's failed sign-ins from every address.</p>
        <section class="card"><table id="operators">
        <thead><tr><th scope="col">Name</th><th scope="col">Role</th><th scope="col">State</th><th scope="col">Failed sign-ins (15 min)</th><th scope="col"></th></tr></thead>
        <tbody>
        {{#operators}}<tr><td>{{username}}</td><td>{{role}}</td><td>{{state}}</td><td>{{failures}}</td>
        <td>{{#mayChange}}{{#hasFailures}}<form method="post" action="/console/operators/{{username}}/unlock" class="inline">{{>why}}
          <button type="submit">Unlock</button></form>{{/hasFailures}}{{/mayChange}}</td></tr>
        {{/operators}}
        </tbody></table></section>
        {{/body}}{{/layout}}
        """

    package static let changes = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Changes log</h1>
        <form method="get" action="/console/changes" class="card">
          <label for="since">Changes since (UTC)</label><input type="datetime-local" id="since" name="since" value="{{since}}">
          <button type="submit">Show</button></form>
        <section class="card"><table id="changes">
        <caption class="muted">Newest first: who changed what, when and why, with the values before and after (never a secret).</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th><th scope="col">Why</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
        <tbody>
        {{#changes}}<tr><td>{{at}}</td><td>{{actor}}</td><td><code>{{action}}</code></td><td>{{target}}</td><td>{{description}}</td>
        <td><pre>{{before}}</pre></td><td><pre>{{after}}</pre></td></tr>
        {{/changes}}
        {{^changes}}<tr><td colspan="7">No change in this period.</td></tr>{{/changes}}
        </tbody></table></section>
        {{/body}}{{/layout}}
        """

    package static let reports = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{<layout}}{{$body}}
        <h1>Reports</h1>
        <form method="get" action="/console/reports" class="card" id="report-form">
          <label for="report-requestor">Requestor</label><select id="report-requestor" name="requestor"><option value="">All requestors</option>
          {{#requestors}}<option value="{{id}}"{{#selected}} selected{{/selected}}>{{id}}</option>{{/requestors}}</select>
          <label for="report-period">Period</label><select id="report-period" name="period">
          {{#periods}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/periods}}</select>
          <button type="submit">Show</button></form>
        <div id="report" data-query="{{query}}" data-state="loading">
        <p class="muted">From {{start}} to {{end}} (UTC), by {{granularity}}. Download the figures as CSV:
        <a href="/admin/api/v1/reports?{{query}}&amp;format=csv" id="csv-total">over time</a>,
        <a href="/admin/api/v1/reports/mvpd?{{query}}&amp;granularity=total&amp;format=csv" id="csv-mvpd">by MVPD</a>,
        <a href="/admin/api/v1/reports/platform?{{query}}&amp;granularity=total&amp;format=csv" id="csv-platform">by platform</a>,
        <a href="/admin/api/v1/reports/mvpd/platform?{{query}}&amp;format=csv" id="csv-mvpd-platform">by MVPD and platform over time</a>.</p>
        <p class="flash error" role="alert" id="report-error" hidden></p>
        <div class="grid">
        {{#charts}}<section class="card" aria-labelledby="{{id}}-title"><h2 id="{{id}}-title">{{title}}</h2>
          <div class="chart"><canvas id="{{id}}" role="img" aria-label="{{title}}: a chart; the figures are in the table below it"></canvas></div></section>
        {{/charts}}
        </div></div>
        {{/body}}{{$scripts}}<script src="/console/assets/chart.min.js"></script><script src="/console/assets/reports.js"></script>{{/scripts}}{{/layout}}
        """
}
