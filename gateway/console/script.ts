/**
 * The console's browser script, served inline by `GET /console` (no build step, no library).
 * Plain ES2020 for any current browser; kept as text here so the gateway serves one page from
 * memory whether it runs from source or from dist/. It must not contain a backtick or a
 * dollar-brace (this is a template literal): strings are built with `+`. Its tables and job
 * dialog (tables-script.ts) and its charts (chart-script.ts) are joined into it as text.
 *
 * Security: the admin key lives in sessionStorage only and travels in the Authorization
 * header (fetch) or as a WebSocket subprotocol (the feed) — never in a URL. Every value from
 * the server is written with textContent, never as HTML.
 */
import { CHART_FUNCTIONS } from './chart-script.js';
import { TABLE_FUNCTIONS } from './tables-script.js';

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
` + TABLE_FUNCTIONS + CHART_FUNCTIONS + String.raw`
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
