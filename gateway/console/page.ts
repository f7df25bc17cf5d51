/**
 * The operator console (`GET /console`): one self-contained page, no external resource. Every
 * number is an element with `data-stat="<path in the status document>"` (and the raw value in
 * `data-value`), which is how the script fills it and how the browser test reads it.
 */
import { CONSOLE_SCRIPT } from './script.js';

const STYLE = `
  :root { font: 14px/1.4 system-ui, sans-serif; color: #222; background: #f3f4f6; }
  body { margin: 0; }
  header { display: flex; gap: 1rem; align-items: center; padding: .6rem 1rem; background: #1f2937; color: #fff; }
  header h1 { font-size: 1.1rem; margin: 0; flex: 1; }
  main { padding: 1rem; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(330px, 1fr)); }
  section { background: #fff; border-radius: 6px; padding: .7rem 1rem; box-shadow: 0 1px 2px #0002; }
  section h2 { font-size: .9rem; margin: 0 0 .5rem; text-transform: uppercase; color: #555; letter-spacing: .03em; }
  dl { display: grid; grid-template-columns: 1fr auto; margin: 0; gap: .15rem .8rem; }
  dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; }
  table { width: 100%; border-collapse: collapse; font-size: .85rem; }
  th, td { text-align: left; padding: .15rem .3rem; border-bottom: 1px solid #eee; }
  .wide { grid-column: 1 / -1; }
  .badge { padding: .1rem .5rem; border-radius: 1rem; background: #6b7280; font-size: .8rem; }
  .badge.on { background: #059669; }
  button.link { background: none; border: 0; color: #2563eb; cursor: pointer; padding: 0; font: inherit; text-decoration: underline; }
  #signin { max-width: 420px; margin: 4rem auto; }
  #signin input { width: 100%; box-sizing: border-box; padding: .4rem; margin: .5rem 0; }
  .error { color: #b91c1c; }
  pre { max-height: 420px; overflow: auto; background: #f9fafb; padding: .5rem; font-size: .8rem; }
  #feed-log { max-height: 180px; overflow: auto; font: .75rem monospace; padding: 0; margin: 0; list-style: none; }
  dialog#job { width: min(960px, 92vw); max-height: 86vh; border: 0; border-radius: 6px; padding: .7rem 1rem; box-shadow: 0 8px 30px #0004; }
  dialog#job::backdrop { background: #0005; }
  dialog#job pre { max-height: 70vh; }
  .filters { display: flex; gap: 1rem; flex-wrap: wrap; margin: 0 0 .5rem; font-size: .85rem; }
  .note { font-size: .8rem; color: #555; margin: .4rem 0 0; }
  td.target { max-width: 28rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .chart svg { width: 100%; height: auto; }
`;

function stat(label: string, path: string, format?: 'mb' | 'ms'): string {
  return `<dt>${label}</dt><dd data-stat="${path}"${format ? ` data-format="${format}"` : ''}>–</dd>`;
}

const DASHBOARD = `
<main>
  <section><h2>Queue</h2><dl>
    ${stat('depth (durable)', 'queue.depth')}${stat('running', 'queue.running')}${stat('waiting', 'queue.waiting')}
  </dl></section>
  <section><h2>Jobs, last hour</h2><dl>
    ${stat('accepted', 'jobs.last_hour.accepted')}${stat('started', 'jobs.last_hour.started')}
    ${stat('done', 'jobs.last_hour.done')}${stat('failed', 'jobs.last_hour.failed')}${stat('jobs per second', 'jobs.per_second')}
  </dl></section>
  <section><h2>Farm</h2><dl>
    ${stat('fetch threads up', 'farm.workers')}${stat('tasks in flight', 'farm.in_flight')}${stat('tasks queued', 'farm.queued')}
    ${stat('browser contexts', 'farm.contexts')}${stat('browser pages', 'farm.pages')}${stat('browser launches', 'farm.browser_launches')}
  </dl></section>
  <section><h2>Latency, last hour</h2><dl>
    ${stat('sync p50', 'latency_ms.sync.p50', 'ms')}${stat('sync p95', 'latency_ms.sync.p95', 'ms')}${stat('sync requests', 'latency_ms.sync.count')}
    ${stat('job run p50', 'latency_ms.jobs.p50', 'ms')}${stat('job run p95', 'latency_ms.jobs.p95', 'ms')}
  </dl></section>
  <section><h2>Delivery outbox</h2><dl>
    ${stat('pending', 'outbox.pending')}${stat('failed, last hour', 'outbox.failed_last_hour')}
  </dl></section>
  <section><h2>Memory</h2><dl>
    ${stat('node RSS', 'memory.node_rss', 'mb')}${stat('node heap', 'memory.node_heap_used', 'mb')}
    ${stat('Chromium RSS', 'memory.chromium_rss', 'mb')}${stat('Chromium browsers', 'memory.chromium_processes')}
  </dl></section>
  <section><h2>Pages by route family</h2>
    <table id="families"><thead><tr><th>family</th><th>per second</th><th>last hour</th></tr></thead><tbody></tbody></table>
  </section>
  <section><h2>Errors, last hour</h2>
    <table id="errors"><thead><tr><th>title</th><th>count</th></tr></thead><tbody></tbody></table>
    <p class="note">Not errors of the service: <span data-stat="refused.unauthorized">–</span> refused keys (401)<span id="refused-other"></span>.</p>
  </section>
  <section><h2>Parse status by route, last hour</h2>
    <table id="parses"><thead><tr><th>route</th><th>parsed</th><th>partial</th><th>unrecognised</th><th>blocked</th></tr></thead><tbody></tbody></table>
  </section>
  <section><h2>Jobs finished, last hour</h2><div id="chart-jobs" class="chart"></div></section>
  <section><h2>Pages by route family, last hour</h2><div id="chart-pages" class="chart"></div></section>
  <section><h2>Sync latency, last hour</h2><div id="chart-latency" class="chart"></div></section>
  <section><h2>Queue depth, last hour</h2><div id="chart-queue" class="chart"></div></section>
  <section class="wide" id="cluster" hidden><h2>Cluster nodes (<span id="cluster-totals"></span>)</h2>
    <table id="nodes"><thead><tr><th>node</th><th>role</th><th>capacity</th><th>in flight</th><th>queued</th><th>jobs running</th><th>heartbeat</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide"><h2>Accounts: usage against quota</h2>
    <table id="accounts"><thead><tr><th>client</th><th>name</th><th>today</th><th>this month</th><th>quota</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide"><h2>Running crawls</h2>
    <table id="crawls"><thead><tr><th>crawl</th><th>start URL</th><th>client</th><th>done / limit</th><th>queued</th><th>failed</th><th>skipped (robots / filters)</th></tr></thead><tbody></tbody></table>
  </section>
  <section class="wide"><h2>Recent jobs</h2>
    <form id="job-filter" class="filters">
      <label>state <select id="filter-state"><option value="">any</option><option>accepted</option><option>started</option><option>done</option><option value="failed">failed</option><option>delivered</option><option>delivery_failed</option></select></label>
      <label>route <input id="filter-route" placeholder="se1/* or mkt1/product" size="18" spellcheck="false"></label>
      <label>account <select id="filter-account"><option value="">any</option></select></label>
    </form>
    <table id="jobs"><thead><tr><th>job</th><th>route</th><th>target</th><th>account</th><th>state</th><th>error</th><th>updated</th></tr></thead><tbody></tbody></table>
    <p class="note">Failed jobs stay listed apart from the last 200 jobs, so a burst does not hide them.</p>
  </section>
  <dialog id="job" aria-labelledby="job-title"><h2 id="job-title">Job <span id="job-id"></span> <button type="button" id="job-close">close</button></h2><pre id="job-body"></pre></dialog>
  <section class="wide"><h2>Feed (<span id="feed-count">0</span> events)</h2><ul id="feed-log"></ul></section>
</main>`;

export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Gleaner console</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>Gleaner console</h1><span id="live" class="badge">offline</span><span>updated <span id="updated">–</span></span>
  <span id="error" class="error"></span></header>
<section id="signin" hidden>
  <h2>Sign in</h2>
  <form id="signin-form" autocomplete="off">
    <label for="key">Admin API key (kept in this tab's session storage only)</label>
    <input id="key" type="password" autocomplete="off" spellcheck="false" required>
    <button type="submit">Sign in</button>
  </form>
  <p id="signin-error" class="error"></p>
</section>
<div id="dashboard" hidden>
  <p style="margin:.5rem 1rem 0"><button type="button" id="signout">Sign out</button></p>
  ${DASHBOARD}
</div>
<script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
