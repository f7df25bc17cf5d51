/**
 * The console's browser script, served inline by `GET /console` (no build step, no library).
 * Plain ES2020 for any current browser; kept as text here so the gateway serves one page from
 * memory whether it runs from source or from dist/. It must not contain a backtick or a
 * dollar-brace (this is a template literal): strings are built with `+`.
 *
 * Security: the admin key lives in sessionStorage only and travels in the Authorization
 * header (fetch) or as a WebSocket subprotocol (the feed) — never in a URL. Every value from
 * the server is written with textContent, never as HTML.
 */
import { CHART_FUNCTIONS } from './chart-script.js';

export const CONSOLE_SCRIPT = String.raw`
'use strict';
(function () {
  var KEY_NAME = 'gleaner.adminKey';
  var POLL_MS = 2000;
  var FAMILIES = ['universal', 'search_engine', 'video', 'assistant', 'commerce'];
  var COLORS = { universal: '#4e79a7', search_engine: '#f28e2b', video: '#e15759', assistant: '#76b7b2', commerce: '#59a14f' };
  var state = { timer: null, socket: null, feedEvents: 0, refreshQueued: false, last: null };

  function $(sel) { return document.querySelector(sel); }
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function key() { return sessionStorage.getItem(KEY_NAME); }
  function get(obj, path) {
    return path.split('.').reduce(function (o, k) { return o === null || o === undefined ? undefined : o[k]; }, obj);
  }
  function mb(bytes) { return (bytes / 1048576).toFixed(1) + ' MB'; }
  function ms(v) { return v === null || v === undefined ? '–' : v + ' ms'; }

  function api(path) {
    return fetch(path, { headers: { authorization: 'Bearer ' + key() }, cache: 'no-store' }).then(function (res) {
      if (res.status === 401) throw new Error('The key was refused (401).');
      if (res.status === 403) throw new Error('This key is not an admin key (403).');
      return res.json().then(function (body) {
        if (!res.ok) throw new Error((body && body.title) || ('HTTP ' + res.status));
        return body;
      });
    });
  }

  function show(signedIn) {
    $('#signin').hidden = signedIn;
    $('#dashboard').hidden = !signedIn;
  }

  function signIn(event) {
    event.preventDefault();
    var input = $('#key');
    var value = input.value.trim();
    input.value = '';
    if (!value) return;
    sessionStorage.setItem(KEY_NAME, value);
    start();
  }

  function signOut() {
    sessionStorage.removeItem(KEY_NAME);
    stop();
    show(false);
  }

  function stop() {
    clearTimeout(state.timer);
    state.timer = null;
    if (state.socket) { state.socket.onclose = null; state.socket.close(); state.socket = null; }
    setLive(false);
  }

  function start() {
    stop();
    $('#signin-error').textContent = '';
    api(statusPath()).then(function (doc) {
      show(true);
      render(doc);
      connectFeed();
      schedule();
    }, function (err) {
      sessionStorage.removeItem(KEY_NAME);
      show(false);
      $('#signin-error').textContent = err.message;
    });
  }

  /** The status document, its recent jobs filtered as the form says. */
  function statusPath() {
    var q = [];
    var s = $('#filter-state').value, r = $('#filter-route').value.trim(), a = $('#filter-account').value;
    if (s) q.push('state=' + encodeURIComponent(s));
    if (r) q.push('route=' + encodeURIComponent(r));
    if (a) q.push('account=' + encodeURIComponent(a));
    return '/v1/status' + (q.length ? '?' + q.join('&') : '');
  }

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(refresh, POLL_MS);
  }

  function refresh() {
    if (!key()) return;
    api(statusPath()).then(function (doc) { render(doc); $('#error').textContent = ''; }, function (err) {
      $('#error').textContent = err.message;
    }).then(schedule);
  }

  /** Feed events make the numbers move at once: one refresh per burst. */
  function refreshSoon() {
    if (state.refreshQueued) return;
    state.refreshQueued = true;
    setTimeout(function () { state.refreshQueued = false; refresh(); }, 250);
  }

  function setLive(on) {
    var badge = $('#live');
    badge.textContent = on ? 'live' : 'offline';
    badge.className = on ? 'badge on' : 'badge';
  }

  function connectFeed() {
    var scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
    var token = btoa(unescape(encodeURIComponent(key()))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    var ws = new WebSocket(scheme + location.host + '/v1/feed?format=json', ['gleaner-feed', 'bearer.' + token]);
    state.socket = ws;
    ws.onopen = function () { setLive(true); };
    ws.onmessage = function (msg) {
      var event;
      try { event = JSON.parse(msg.data); } catch (e) { return; }
      state.feedEvents++;
      $('#feed-count').textContent = String(state.feedEvents);
      var log = $('#feed-log');
      var line = el('li', new Date((event.at || Date.now())).toLocaleTimeString() + '  ' + event.type + '  ' + (event.route || '') + '  ' + (event.job_id || ''));
      log.insertBefore(line, log.firstChild);
      while (log.children.length > 30) log.removeChild(log.lastChild);
      refreshSoon();
    };
    ws.onclose = function () {
      setLive(false);
      if (state.socket === ws && key()) setTimeout(function () { if (state.socket === ws) connectFeed(); }, 3000);
    };
  }

  function render(doc) {
    state.last = doc;
    var stats = document.querySelectorAll('[data-stat]');
    for (var i = 0; i < stats.length; i++) {
      var node = stats[i];
      var value = get(doc, node.getAttribute('data-stat'));
      var format = node.getAttribute('data-format');
      node.setAttribute('data-value', value === null || value === undefined ? '' : String(value));
      node.textContent = format === 'mb' ? mb(value || 0) : format === 'ms' ? ms(value) : value === null || value === undefined ? '–' : String(value);
    }
    renderFamilies(doc);
    renderErrors(doc.errors, doc.refused);
    renderParses(doc.parse_status);
    renderAccounts(doc.accounts);
    renderNodes(doc.cluster);
    renderAccountFilter(doc.accounts);
    renderJobs(doc.recent_jobs);
    renderCrawls(doc.crawls || []);
    renderCharts(doc.history);
    $('#updated').textContent = new Date(doc.at * 1000).toLocaleTimeString();
  }

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

` + CHART_FUNCTIONS + String.raw`
  document.addEventListener('DOMContentLoaded', function () {
    $('#signin-form').addEventListener('submit', signIn);
    $('#signout').addEventListener('click', signOut);
    $('#job-close').addEventListener('click', function () { $('#job').close(); });
    ['#filter-state', '#filter-account'].forEach(function (s) { $(s).addEventListener('change', refresh); });
    $('#filter-route').addEventListener('input', refreshSoon);
    $('#job-filter').addEventListener('submit', function (e) { e.preventDefault(); refresh(); });
    if (key()) start(); else show(false);
  });
})();
`;
