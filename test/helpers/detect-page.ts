/**
 * A bot-detection page and its server (port 0): the in-page checks public detectors run
 * (sannysoft, creepjs, the rebrowser bot detector), each a pass/fail with what it saw. The page
 * posts its results to `/result?run=<id>`; `waitForResult(id)` waits for them.
 *
 * `GET /detect?run=<id>&tz=<IANA>` serves the page; `tz` is the time zone the client's profile
 * claims (checked against Intl and Date). The server echoes the document request's
 * `Accept-Language` into the page so it can compare it with `navigator.languages`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CheckResult {
  pass: boolean;
  seen: string;
}

export type DetectResults = Record<string, CheckResult>;

export interface DetectServer {
  origin: string;
  /** Document request headers (raw, in order) per run id. */
  headers: Map<string, string[]>;
  waitForResult(run: string, ms: number): Promise<DetectResults>;
  close(): Promise<void>;
}

/** Reports what a worker scope sees; shared by the dedicated, shared and service worker. */
const WORKER_FACTS = `
async function facts() {
  const n = self.navigator;
  let he = null;
  try { he = await n.userAgentData.getHighEntropyValues(['platform', 'fullVersionList']); } catch (e) { he = null; }
  let gl = null;
  try {
    const c = new OffscreenCanvas(1, 1).getContext('webgl');
    const d = c && c.getExtension('WEBGL_debug_renderer_info');
    gl = d ? c.getParameter(d.UNMASKED_RENDERER_WEBGL) : null;
  } catch (e) { gl = null; }
  return { ua: n.userAgent, platform: n.platform, languages: Array.from(n.languages || []), cores: n.hardwareConcurrency,
    memory: n.deviceMemory, brands: n.userAgentData ? n.userAgentData.brands.map((b) => b.brand) : null,
    uadPlatform: n.userAgentData ? n.userAgentData.platform : null, he, tz: Intl.DateTimeFormat().resolvedOptions().timeZone, gl, webdriver: n.webdriver };
}`;

const DEDICATED = `${WORKER_FACTS}\nfacts().then((f) => postMessage(f));`;
const SHARED = `${WORKER_FACTS}\nonconnect = (e) => { const port = e.ports[0]; facts().then((f) => port.postMessage(f)); };`;
const SERVICE = `${WORKER_FACTS}
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('message', (e) => { facts().then((f) => e.source.postMessage(f)); });`;

/** The checks, run in the page. Each returns [pass, seen]. */
const PAGE_SCRIPT = `
(async () => {
  const out = {};
  const check = async (name, fn) => {
    try { const [pass, seen] = await fn(); out[name] = { pass: !!pass, seen: String(seen).slice(0, 300) }; }
    catch (e) { out[name] = { pass: false, seen: 'threw ' + (e && e.message) }; }
  };
  const params = new URLSearchParams(location.search);
  const req = JSON.parse(document.getElementById('req').textContent);
  const n = navigator;
  const uaOs = (ua) => /Android/.test(ua) ? 'android' : /Windows/.test(ua) ? 'windows' : /Mac OS X/.test(ua) ? 'mac' : /Linux|X11/.test(ua) ? 'linux' : 'other';
  const platformOs = (p) => /^Linux arm|^Linux aarch/.test(p) ? 'android' : /^Win/.test(p) ? 'windows' : /^Mac/.test(p) ? 'mac' : /^Linux/.test(p) ? 'linux' : 'other';
  const uadOs = (p) => ({ Android: 'android', Windows: 'windows', macOS: 'mac', Linux: 'linux', 'Chrome OS': 'linux' })[p] || 'other';
  const headless = (s) => /headless/i.test(String(s));
  const isNative = (f) => typeof f === 'function' && /^function (get |set )?[\\w$]*\\(\\) \\{\\s*\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(f));
  const withTimeout = (p, ms) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), ms))]);

  const iframe = document.createElement('iframe');
  iframe.srcdoc = '<!doctype html><p>frame</p>';
  const framed = new Promise((r) => (iframe.onload = r));
  document.body.appendChild(iframe);
  await framed;
  const fw = iframe.contentWindow;

  const dedicated = withTimeout(new Promise((resolve) => {
    const w = new Worker(URL.createObjectURL(new Blob([${JSON.stringify(DEDICATED)}], { type: 'text/javascript' })));
    w.onmessage = (e) => resolve(e.data);
  }), 5000);
  const shared = typeof SharedWorker === 'undefined' ? Promise.resolve(null) : withTimeout(new Promise((resolve) => {
    const w = new SharedWorker('/shared.js?run=' + params.get('run'));
    w.port.onmessage = (e) => resolve(e.data);
    w.port.start();
  }), 5000);
  const service = !n.serviceWorker ? Promise.reject(new Error('no navigator.serviceWorker')) : withTimeout((async () => {
    const reg = await n.serviceWorker.register('/sw.js?run=' + params.get('run'));
    const sw = reg.active || reg.waiting || reg.installing;
    if (sw.state !== 'activated') await new Promise((r) => sw.addEventListener('statechange', () => sw.state === 'activated' && r()));
    return await new Promise((resolve) => { n.serviceWorker.addEventListener('message', (e) => resolve(e.data)); sw.postMessage('facts'); });
  })(), 8000);

  await check('webdriver', () => [n.webdriver === false && !('webdriver' in Object.getOwnPropertyDescriptors(n)), n.webdriver]);
  await check('ua-headless', () => [!headless(n.userAgent) && !headless(n.appVersion), n.userAgent]);
  await check('brands-window', () => [n.userAgentData && n.userAgentData.brands.length >= 2 && !n.userAgentData.brands.some((b) => headless(b.brand)), JSON.stringify(n.userAgentData && n.userAgentData.brands)]);
  await check('brands-iframe', () => [fw.navigator.userAgentData && !fw.navigator.userAgentData.brands.some((b) => headless(b.brand)) && !headless(fw.navigator.userAgent), JSON.stringify(fw.navigator.userAgentData.brands)]);
  await check('brands-worker', async () => { const w = await dedicated; return [w.brands && w.brands.length >= 2 && !w.brands.some(headless) && !headless(w.ua), JSON.stringify(w.brands) + ' ' + w.ua]; });
  await check('ua-worker', async () => { const w = await dedicated; return [w.ua === n.userAgent, w.ua]; });
  await check('platform-window', () => [platformOs(n.platform) === uaOs(n.userAgent) && uadOs(n.userAgentData.platform) === uaOs(n.userAgent), n.platform + ' / ' + n.userAgentData.platform]);
  await check('platform-iframe', () => [fw.navigator.platform === n.platform && fw.navigator.userAgent === n.userAgent, fw.navigator.platform]);
  await check('platform-worker', async () => { const w = await dedicated; return [w.platform === n.platform && uadOs(w.uadPlatform) === uaOs(n.userAgent), w.platform + ' / ' + w.uadPlatform]; });
  await check('high-entropy', async () => {
    const he = await n.userAgentData.getHighEntropyValues(['platform', 'platformVersion', 'architecture', 'bitness', 'model', 'fullVersionList']);
    const major = (/Chrome\\/(\\d+)/.exec(n.userAgent) || [])[1];
    const full = he.fullVersionList.find((b) => b.brand === 'Chromium');
    return [full && full.version.split('.')[0] === major && uadOs(he.platform) === uaOs(n.userAgent) && (he.mobile === /Mobile/.test(n.userAgent)), JSON.stringify(he)];
  });
  await check('plugins', () => {
    const names = Array.from(n.plugins).map((p) => p.name);
    const ok = n.plugins.length === 5 && names.includes('Chrome PDF Viewer') && n.mimeTypes.length === 2 && n.mimeTypes[0].type === 'application/pdf'
      && n.plugins[0] instanceof Plugin && n.mimeTypes[0] instanceof MimeType && n.pdfViewerEnabled === true && n.plugins.item(0) === n.plugins[0];
    return [ok, names.join(',') + ' mimes=' + n.mimeTypes.length];
  });
  await check('window-chrome', () => [typeof window.chrome === 'object' && window.chrome !== null && typeof fw.chrome === 'object', Object.keys(window.chrome || {}).join(',')]);
  await check('notification-permission', async () => {
    const state = (await n.permissions.query({ name: 'notifications' })).state;
    const map = { default: 'prompt', granted: 'granted', denied: 'denied' };
    return [map[Notification.permission] === state, Notification.permission + '/' + state];
  });
  await check('window-sizes', () => {
    const mobile = /Mobile/.test(n.userAgent);
    const ok = innerWidth > 0 && innerHeight > 0 && outerWidth >= innerWidth && (mobile ? outerHeight >= innerHeight : outerHeight > innerHeight)
      && screen.availWidth <= screen.width && screen.availHeight <= screen.height && outerWidth <= screen.availWidth + 16 && outerHeight <= screen.availHeight + 16
      && !(screen.width === innerWidth && screen.height === innerHeight && !mobile) && screen.colorDepth >= 24;
    return [ok, [outerWidth, outerHeight, innerWidth, innerHeight, screen.width, screen.height, screen.availWidth, screen.availHeight, screen.colorDepth].join(',')];
  });
  await check('cdp-leak', () => {
    let touched = 0;
    const e = new Error('probe');
    Object.defineProperty(e, 'stack', { configurable: false, enumerable: false, get() { touched++; return ''; } });
    console.debug(e);
    const old = Error.prepareStackTrace;
    Error.prepareStackTrace = (err, frames) => { touched++; return old ? old(err, frames) : String(err); };
    try { console.log(new Error('probe')); } finally { Error.prepareStackTrace = old; }
    return [touched === 0, 'hooks called ' + touched];
  });
  await check('languages-header', () => {
    const header = req['accept-language'] || '';
    const derived = n.languages.map((l, i) => (i === 0 ? l : l + ';q=' + (Math.max(1, 10 - i) / 10).toFixed(1))).join(',');
    return [header === derived && n.language === n.languages[0], header + ' vs ' + n.languages.join(',')];
  });
  await check('timezone', () => {
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const want = params.get('tz');
    // Date's offset must be the zone's, as Intl computes it.
    const d = new Date();
    const parts = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(d);
    const get = (t) => Number(parts.find((p) => p.type === t).value);
    const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
    const offset = Math.round((asUtc - Math.floor(d.getTime() / 60000) * 60000) / 60000);
    return [(!want || tz === want) && offset === -d.getTimezoneOffset(), tz + ' offset ' + offset + ' want ' + want];
  });
  // Beyond the 16: checks of the kind creepjs and sannysoft add.
  await check('native-functions', () => {
    const nav = Navigator.prototype;
    const getters = ['webdriver', 'userAgent', 'platform', 'languages', 'plugins', 'hardwareConcurrency', 'deviceMemory', 'userAgentData']
      .map((k) => Object.getOwnPropertyDescriptor(nav, k)).map((d) => d && d.get);
    const fns = [...getters, Permissions.prototype.query, WebGLRenderingContext.prototype.getParameter, Function.prototype.toString,
      HTMLCanvasElement.prototype.toDataURL, Intl.DateTimeFormat.prototype.resolvedOptions, Date.prototype.getTimezoneOffset];
    const bad = fns.map((f, i) => (isNative(f) ? null : i)).filter((i) => i !== null);
    return [bad.length === 0 && Object.getOwnPropertyNames(n).length === 0, 'not native: ' + bad.join(',') + ' own: ' + Object.getOwnPropertyNames(n).join(',')];
  });
  await check('iframe-consistency', () => {
    const f = fw.navigator;
    const ok = fw.self === fw && fw.parent === window && f.userAgent === n.userAgent && f.languages.join() === n.languages.join()
      && f.hardwareConcurrency === n.hardwareConcurrency && f.webdriver === n.webdriver && f.plugins.length === n.plugins.length
      && fw.screen.width === screen.width && JSON.stringify(f.userAgentData.brands) === JSON.stringify(n.userAgentData.brands);
    return [ok, f.userAgent + ' ' + f.languages.join()];
  });
  await check('worker-hardware', async () => {
    const w = await dedicated;
    return [w.cores === n.hardwareConcurrency && w.memory === n.deviceMemory && w.languages.join() === n.languages.join(), [w.cores, w.memory, w.languages].join(' ')];
  });
  await check('worker-timezone', async () => { const w = await dedicated; return [w.tz === Intl.DateTimeFormat().resolvedOptions().timeZone, w.tz]; });
  await check('shared-worker', async () => {
    const w = await shared;
    return [w && w.ua === n.userAgent && w.platform === n.platform && w.brands && !w.brands.some(headless) && w.languages.join() === n.languages.join(), w && w.ua + ' ' + w.languages.join()];
  });
  await check('service-worker', async () => {
    const w = await service;
    return [w.ua === n.userAgent && w.platform === n.platform && w.brands && !w.brands.some(headless) && w.languages.join() === n.languages.join(), w.ua + ' ' + w.languages.join()];
  });
  await check('webgl', () => {
    const c = document.createElement('canvas').getContext('webgl');
    const d = c && c.getExtension('WEBGL_debug_renderer_info');
    const vendor = d && c.getParameter(d.UNMASKED_VENDOR_WEBGL);
    const renderer = d && c.getParameter(d.UNMASKED_RENDERER_WEBGL);
    return [!!vendor && !!renderer && (/Linux|Android/.test(n.userAgent) ? !/Direct3D/.test(renderer) : true), vendor + ' / ' + renderer];
  });
  await check('intl-locale', () => {
    const loc = Intl.DateTimeFormat().resolvedOptions().locale;
    return [loc.split('-')[0] === n.language.split('-')[0], loc + ' vs ' + n.language];
  });
  await check('connection', () => [!n.connection || n.connection.rtt > 0, n.connection && n.connection.rtt]);
  await check('media-queries', () => {
    const mobile = /Mobile/.test(n.userAgent);
    const ok = mobile ? matchMedia('(pointer: coarse)').matches : matchMedia('(pointer: fine)').matches && matchMedia('(hover: hover)').matches;
    return [ok, 'fine=' + matchMedia('(pointer: fine)').matches + ' coarse=' + matchMedia('(pointer: coarse)').matches + ' hover=' + matchMedia('(hover: hover)').matches];
  });

  document.getElementById('out').textContent = JSON.stringify(out);
  await fetch('/result?run=' + encodeURIComponent(params.get('run')), { method: 'POST', body: JSON.stringify(out) });
})();
`;

function page(reqHeaders: Record<string, string | string[] | undefined>): string {
  const json = JSON.stringify(reqHeaders).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><title>detect</title></head><body>
<script type="application/json" id="req">${json}</script><pre id="out"></pre>
<script>${PAGE_SCRIPT}</script></body></html>`;
}

export async function startDetectServer(): Promise<DetectServer> {
  const results = new Map<string, DetectResults>();
  const waiters = new Map<string, (r: DetectResults) => void>();
  const headers = new Map<string, string[]>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const run = url.searchParams.get('run') ?? '';
    if (url.pathname === '/detect') {
      headers.set(run, req.rawHeaders);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(req.headers));
      return;
    }
    const script = url.pathname === '/sw.js' ? SERVICE : url.pathname === '/shared.js' ? SHARED : undefined;
    if (script) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'service-worker-allowed': '/' });
      res.end(script);
      return;
    }
    if (url.pathname === '/result' && req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body) as DetectResults;
        results.set(run, parsed);
        waiters.get(run)?.(parsed);
        res.end('ok');
      });
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    headers,
    waitForResult(run, ms) {
      const have = results.get(run);
      if (have) return Promise.resolve(have);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no detection result for run ${run} within ${ms} ms`)), ms);
        waiters.set(run, (r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
