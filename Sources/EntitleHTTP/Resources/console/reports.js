// The console's reports page: reads the report API (/admin/api/v1/reports/…, with the session cookie) for the period
// and requestor the form chose, and draws the figures with Chart.js (vendored from Debian's libjs-chart.js). Each chart
// also gets a table of its figures. The page sets data-state="ready" (or "failed") on #report when done.
(function () {
  'use strict';
  var root = document.getElementById('report');
  if (!root) { return; }
  var query = root.getAttribute('data-query') || '';
  var breakdown = root.getAttribute('data-breakdown') || 'resource';
  var colors = ['#1d4ed8', '#059669', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#4b5563'];

  function load(dimensions, extra) {
    var path = '/admin/api/v1/reports' + (dimensions ? '/' + dimensions : '');
    return fetch(path + '?' + query + (extra || ''), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (response) {
        if (!response.ok) { throw new Error('The report API answered ' + response.status + '.'); }
        return response.json();
      });
  }

  function table(container, labels, datasets) {
    var details = document.createElement('details');
    var summary = document.createElement('summary');
    summary.textContent = 'Figures as a table';
    details.appendChild(summary);
    var t = document.createElement('table');
    var head = t.createTHead().insertRow();
    [''].concat(datasets.map(function (d) { return d.label; })).forEach(function (text) {
      var th = document.createElement('th'); th.scope = 'col'; th.textContent = text; head.appendChild(th);
    });
    var body = t.createTBody();
    labels.forEach(function (label, index) {
      var row = body.insertRow();
      var th = document.createElement('th'); th.scope = 'row'; th.textContent = label; row.appendChild(th);
      datasets.forEach(function (d) { row.insertCell().textContent = String(d.data[index]); });
    });
    details.appendChild(t);
    container.appendChild(details);
  }

  function draw(id, type, labels, series) {
    var canvas = document.getElementById(id);
    if (!canvas) { return; }
    var datasets = series.map(function (s, i) {
      return { label: s.label, data: s.data, backgroundColor: colors[i % colors.length], borderColor: colors[i % colors.length], fill: false, tension: 0.2 };
    });
    new window.Chart(canvas, {
      type: type,
      data: { labels: labels, datasets: datasets },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { y: { beginAtZero: true } } }
    });
    table(canvas.parentNode.parentNode, labels, datasets);
  }

  function timeLabel(row) {
    return row.time ? row.time.replace('T', ' ').replace(':00Z', '').replace('Z', '') : 'total';
  }

  // Every period of the chosen range, with zeros where nothing happened (the API lists only periods with figures).
  function filled(rows) {
    var params = new URLSearchParams(query);
    var step = { minute: 60000, hour: 3600000, day: 86400000 }[params.get('granularity')];
    var start = Date.parse(params.get('start')), end = Date.parse(params.get('end'));
    if (!step || isNaN(start) || isNaN(end) || (end - start) / step > 1000) { return rows; }
    var byTime = {};
    rows.forEach(function (r) { byTime[Date.parse(r.time)] = r; });
    var all = [];
    for (var t = Math.floor(start / step) * step; t < end; t += step) {
      all.push(byTime[t] || { time: new Date(t).toISOString().replace('.000Z', 'Z') });
    }
    return all;
  }

  function overTime(rows, id, fields) {
    rows = filled(rows);
    draw(id, 'line', rows.map(timeLabel), fields.map(function (f) {
      return { label: f[1], data: rows.map(function (r) { return r[f[0]] || 0; }) };
    }));
  }

  function byDimension(rows, dimension, id, fields) {
    draw(id, 'bar', rows.map(function (r) { return r[dimension] || '(none)'; }), fields.map(function (f) {
      return { label: f[1], data: rows.map(function (r) { return r[f[0]] || 0; }) };
    }));
  }

  Promise.all([load('', ''), load('mvpd', '&granularity=total'), load('platform', '&granularity=total'),
    load(breakdown, '&granularity=total')])
    .then(function (answers) {
      var totals = answers[0].rows, mvpds = answers[1].rows, platforms = answers[2].rows, parts = answers[3].rows;
      overTime(totals, 'chart-signins', [['authnAttempts', 'Attempts'], ['authnSuccesses', 'Successes'], ['authnFailures', 'Failures']]);
      overTime(totals, 'chart-authorizations', [['authzGrants', 'Granted'], ['authzDenials', 'Denied'], ['authzFailures', 'Failed']]);
      overTime(totals, 'chart-tokens', [['mediaTokens', 'Media tokens'], ['preauthorizations', 'Preauthorizations']]);
      byDimension(mvpds, 'mvpd', 'chart-mvpd', [['authnSuccesses', 'Sign-ins'], ['authzGrants', 'Authorizations granted'], ['mediaTokens', 'Media tokens']]);
      byDimension(mvpds, 'mvpd', 'chart-latency', [['mvpdLatencyAvgMs', 'Average ms'], ['mvpdLatencyMaxMs', 'Maximum ms']]);
      byDimension(platforms, 'platform', 'chart-platform', [['authnSuccesses', 'Sign-ins'], ['authzGrants', 'Authorizations granted'], ['mediaTokens', 'Media tokens']]);
      byDimension(parts, breakdown, 'chart-breakdown', [['authzGrants', 'Authorizations granted'], ['authzDenials', 'Authorizations denied'],
        ['authzFailures', 'Authorizations failed'], ['authnFailures', 'Sign-in failures'], ['mediaTokens', 'Media tokens']]);
      byDimension(parts, breakdown, 'chart-accounts', [['uniqueAccounts', 'Unique accounts'], ['uniqueVisitors', 'Unique visitors']]);
      root.setAttribute('data-state', 'ready');
    })
    .catch(function (error) {
      var message = document.getElementById('report-error');
      if (message) { message.textContent = 'The figures could not be read: ' + error.message; message.hidden = false; }
      root.setAttribute('data-state', 'failed');
    });
})();
