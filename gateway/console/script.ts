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
    api('/v1/status').then(function (doc) {
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

  function schedule() {
    clearTimeout(state.timer);
    state.timer = setTimeout(refresh, POLL_MS);
  }

  function refresh() {
    if (!key()) return;
    api('/v1/status').then(function (doc) { render(doc); $('#error').textContent = ''; }, function (err) {
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
    renderErrors(doc.errors);
    renderParses(doc.parse_status);
    renderAccounts(doc.accounts);
    renderNodes(doc.cluster);
    renderJobs(doc.recent_jobs);
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

  function renderErrors(errors) {
    fill($('#errors tbody'), errors.length === 0 ? [row(['none in the last hour', ''])] : errors.map(function (e) {
      return row([e.title, String(e.count)], { 'data-title': e.title });
    }));
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
      return row([link, j.route, j.state + (j.error ? ' (' + j.error + ')' : ''), String(j.client_id), new Date(j.updated_at).toLocaleTimeString()], { 'data-job': j.job_id, 'data-state': j.state });
    }));
  }

  function openJob(id) {
    var panel = $('#job');
    panel.hidden = false;
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

  function renderCharts(h) {
    chart('#chart-jobs', [{ name: 'done', color: '#59a14f', values: h.jobs_done }, { name: 'failed', color: '#e15759', values: h.jobs_failed }], h);
    chart('#chart-pages', FAMILIES.map(function (f) { return { name: f, color: COLORS[f], values: h.pages[f] }; }), h);
    chart('#chart-latency', [{ name: 'p50', color: '#4e79a7', values: h.latency_p50 }, { name: 'p95', color: '#f28e2b', values: h.latency_p95 }], h);
    chart('#chart-queue', [{ name: 'depth', color: '#b07aa1', values: h.queue_depth }], h);
  }

  var SVG = 'http://www.w3.org/2000/svg';
  function tspan(text, color) {
    var t = svg('tspan', { fill: color });
    t.textContent = text;
    return t;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    return e;
  }

  /** One line per series over the last hour; null points (no data) break the line. */
  function chart(sel, series, h) {
    var box = $(sel);
    var W = 320, H = 110, P = 4;
    var max = 0;
    series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && v > max) max = v; }); });
    var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + (H + 14), role: 'img' });
    root.appendChild(svg('rect', { x: 0, y: 0, width: W, height: H, fill: '#fafafa', stroke: '#ddd' }));
    series.forEach(function (s) {
      var n = s.values.length;
      var pts = [];
      s.values.forEach(function (v, i) {
        if (v === null) { flush(); return; }
        var x = P + (i * (W - 2 * P)) / Math.max(1, n - 1);
        var y = H - P - (max === 0 ? 0 : (v / max) * (H - 2 * P));
        pts.push(x.toFixed(1) + ',' + y.toFixed(1));
      });
      flush();
      function flush() {
        if (pts.length === 1) {
          var xy = pts[0].split(',');
          root.appendChild(svg('circle', { cx: xy[0], cy: xy[1], r: 2.5, fill: s.color }));
        } else if (pts.length > 1) {
          root.appendChild(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: s.color, 'stroke-width': 1.5 }));
        }
        pts = [];
      }
    });
    var label = svg('text', { x: 2, y: H + 12, 'font-size': 10, fill: '#666' });
    label.appendChild(tspan('max ' + max + '  ', '#666'));
    series.forEach(function (s) { label.appendChild(tspan('■ ' + s.name + '  ', s.color)); });
    label.appendChild(tspan('per ' + h.step_s + ' s', '#666'));
    root.appendChild(label);
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(root);
    box.setAttribute('data-max', String(max));
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('#signin-form').addEventListener('submit', signIn);
    $('#signout').addEventListener('click', signOut);
    $('#job-close').addEventListener('click', function () { $('#job').hidden = true; });
    if (key()) start(); else show(false);
  });
})();
`;
