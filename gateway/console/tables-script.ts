/**
 * The console's tables and job dialog, a part of its browser script (script.ts joins it into the
 * page's one closure: `$`, `el`, `state`, `api`, `FAMILIES` are the script's, and its `render`
 * calls these). Same rules as script.ts: plain ES2020, no backtick, no dollar-brace; values
 * written as text, never as HTML.
 */
export const TABLE_FUNCTIONS = String.raw`
  function row(cells, attrs) {
    var tr = el('tr');
    cells.forEach(function (c) { tr.appendChild(c instanceof Node ? wrap(c) : el('td', c)); });
    if (attrs) Object.keys(attrs).forEach(function (k) { tr.setAttribute(k, attrs[k]); });
    return tr;
  }
  function wrap(node) { var td = el('td'); td.appendChild(node); return td; }
  function fill(tbody, rows) {
    while (tbody.firstChild) tbody.removeChild(tbody.firstChild);
    rows.forEach(function (r) { tbody.appendChild(r); });
  }

  function renderFamilies(doc) {
    fill($('#families tbody'), FAMILIES.map(function (f) {
      return row([f, String(doc.pages.per_second[f]), String(doc.pages.last_hour[f])], { 'data-family': f });
    }));
  }

  function renderErrors(errors, refused) {
    fill($('#errors tbody'), errors.length === 0 ? [row(['none in the last hour', ''])] : errors.map(function (e) {
      return row([e.title, String(e.count)], { 'data-title': e.title });
    }));
    var other = (refused && refused.without_problem) || [];
    $('#refused-other').textContent = other.length === 0 ? '' : ', and answers without a problem document: ' + other.map(function (o) { return o.count + ' × ' + o.status; }).join(', ');
  }

  /** The account filter's choices follow the accounts; the choice made stays. */
  function renderAccountFilter(accounts) {
    var select = $('#filter-account');
    var chosen = select.value;
    var wanted = [''].concat(accounts.map(function (a) { return String(a.client_id); }));
    var have = Array.prototype.map.call(select.options, function (o) { return o.value; });
    if (wanted.join(',') === have.join(',')) return;
    while (select.options.length > 1) select.remove(1);
    accounts.forEach(function (a) { var o = el('option', a.client_id + ' ' + a.name); o.value = String(a.client_id); select.appendChild(o); });
    select.value = chosen;
  }

  function renderParses(parses) {
    fill($('#parses tbody'), parses.length === 0 ? [row(['no parsed pages in the last hour', '', '', '', ''])] : parses.map(function (p) {
      return row([p.route, String(p.parsed), String(p.partial), String(p.unrecognised), String(p.blocked)], { 'data-route': p.route });
    }));
  }

  function renderAccounts(accounts) {
    fill($('#accounts tbody'), accounts.map(function (a) {
      var quota = a.quota ? a.quota.used + ' / ' + a.quota.limit + ' per ' + a.quota.period : 'none';
      return row([String(a.client_id), a.name + (a.admin ? ' (admin)' : ''), String(a.usage.today), String(a.usage.month), quota], { 'data-account': String(a.client_id) });
    }));
  }

  // Cluster mode: every node with a recent heartbeat, and the cluster's totals.
  function renderNodes(cluster) {
    $('#cluster').hidden = !cluster;
    if (!cluster) return;
    var t = cluster.totals;
    $('#cluster-totals').textContent = t.nodes + ' nodes, capacity ' + t.capacity + ', in flight ' + t.in_flight + ', jobs running ' + t.jobs_running;
    fill($('#nodes tbody'), cluster.nodes.map(function (n) {
      var name = n.id + (n.id === cluster.node ? ' (this node)' : '');
      return row([name, n.role, String(n.capacity), String(n.load.in_flight), String(n.load.queued), String(n.load.jobs_running), Math.round((doc_at() - n.at) / 1000) + ' s ago'], { 'data-node': n.id });
    }));
  }
  function doc_at() { return state.last ? state.last.at * 1000 : Date.now(); }

  function renderJobs(jobs) {
    fill($('#jobs tbody'), jobs.map(function (j) {
      var link = el('button', j.job_id, 'link');
      link.type = 'button';
      link.addEventListener('click', function () { openJob(j.job_id); });
      var target = el('td', j.target || '', 'target');
      target.title = j.target || '';
      var tr = row([link, j.route], { 'data-job': j.job_id, 'data-state': j.state });
      tr.appendChild(target);
      [j.client_id + ' ' + (j.account || ''), j.state, j.error || '', new Date(j.updated_at).toLocaleTimeString()].forEach(function (c) { tr.appendChild(el('td', c)); });
      return tr;
    }));
    if (jobs.length === 0) fill($('#jobs tbody'), [row(['no job matches', '', '', '', '', '', ''])]);
  }

  function renderCrawls(crawls) {
    fill($('#crawls tbody'), crawls.length === 0 ? [row(['none running', '', '', '', '', '', ''])] : crawls.map(function (c) {
      var n = c.counts || {};
      var link = el('button', c.id, 'link');
      link.type = 'button';
      link.addEventListener('click', function () { openJob(c.id); });
      return row([link, c.url, String(c.client_id), (n.done || 0) + ' / ' + c.limit, String(n.queued || 0), String(n.failed || 0), (n.skipped_robots || 0) + ' / ' + (n.skipped_filters || 0)], { 'data-crawl': c.id });
    }));
  }

  /** The job opens in a dialog over the page, where the user is looking (not below the fold). */
  function openJob(id) {
    var panel = $('#job');
    if (!panel.open) panel.showModal();
    $('#job-id').textContent = id;
    $('#job-body').textContent = 'loading…';
    api('/v1/status/jobs/' + encodeURIComponent(id)).then(function (body) {
      $('#job-body').textContent = JSON.stringify(body, truncate, 2);
      panel.setAttribute('data-status', body.job.status);
    }, function (err) { $('#job-body').textContent = err.message; });
  }
  /** Page bodies can be megabytes: the panel shows their start. */
  function truncate(k, v) {
    return typeof v === 'string' && v.length > 2000 ? v.slice(0, 2000) + '… (' + v.length + ' characters)' : v;
  }

`;
