/**
 * The simulated assistants' chat pages, written by hand after the structure the assistants'
 * pages are known to have (output-shapes.md §4: composer ids, send/stop controls, answer
 * containers). Three styles:
 *
 * - llm1: streams its answer over server-sent events (`/backend-anon/f/conversation`), shows a
 *   stop button while streaming, renders the Markdown as it comes;
 * - llm2: asks for the whole answer at once (no stream to observe) and renders it word by word,
 *   showing the send button again at the end;
 * - llm3: navigates from its home page to a result page that renders the answer, then cited
 *   sources, related questions and a "Helpful" button.
 *
 * Each opens with a consent dialog that covers the page until accepted.
 */

const STYLE = `<style>
  body { font-family: sans-serif; margin: 0; }
  .overlay { position: fixed; inset: 0; background: rgba(0,0,0,.5); z-index: 10; display: flex; align-items: center; justify-content: center; }
  .overlay > div { background: #fff; padding: 2em; }
  [hidden] { display: none !important; }
</style>`;

/** Shared page helpers: HTML escaping and a tiny Markdown renderer (paragraphs, lists, code, links, bold). */
const HELPERS = `
  var FENCE = String.fromCharCode(96, 96, 96);
  function esc(s) { return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'); }
  function inline(s) {
    return esc(s).replace(/\\*\\*(.+?)\\*\\*/g, '<strong>$1</strong>').replace(/\\[([^\\]]+)\\]\\((https?:[^)\\s]+)\\)/g, '<a href="$2">$1</a>');
  }
  function md(src) {
    var out = [], lines = src.split('\\n'), i = 0;
    while (i < lines.length) {
      var l = lines[i];
      if (l.indexOf(FENCE) === 0) {
        var lang = l.slice(3).trim(), body = []; i++;
        while (i < lines.length && lines[i].indexOf(FENCE) !== 0) body.push(lines[i++]);
        i++;
        out.push('<pre><code class="language-' + esc(lang) + '">' + esc(body.join('\\n')) + '</code></pre>');
      } else if (l.indexOf('- ') === 0) {
        var items = [];
        while (i < lines.length && lines[i].indexOf('- ') === 0) items.push('<li>' + inline(lines[i++].slice(2)) + '</li>');
        out.push('<ul>' + items.join('') + '</ul>');
      } else { if (l.trim()) out.push('<p>' + inline(l) + '</p>'); i++; }
    }
    return out.join('');
  }
  function show(el, on) { if (on) el.removeAttribute('hidden'); else el.setAttribute('hidden', ''); }
  function $(sel) { return document.querySelector(sel); }
`;

const page = (title: string, body: string, script: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${STYLE}</head><body>${body}<script>${HELPERS}${script}</script></body></html>`;

export function llm1Page(): string {
  return page(
    'Chat',
    `<div id="cookie-consent" class="overlay"><div><p>We use cookies.</p><button data-action="accept">Accept all</button></div></div>
<main><div id="thread"></div>
<form id="composer"><textarea id="prompt-textarea" placeholder="Ask anything"></textarea>
<button type="button" data-testid="search-toggle" aria-pressed="false">Search</button>
<button type="button" data-testid="send-button" aria-label="Send prompt">Send</button>
<button type="button" aria-label="Stop streaming" hidden>Stop</button></form>
<div id="modal-no-auth-login" hidden><p>Log in to keep chatting.</p></div>
<div id="challenge-form" hidden><p>Verify you are human.</p></div>
<div data-testid="rate-limit-notice" hidden><p>You have reached the limit of messages.</p></div></main>`,
    `
  $('#cookie-consent button').onclick = function () { $('#cookie-consent').remove(); };
  var toggle = $('[data-testid="search-toggle"]');
  toggle.onclick = function () { toggle.setAttribute('aria-pressed', toggle.getAttribute('aria-pressed') === 'true' ? 'false' : 'true'); };
  var send = $('[data-testid="send-button"]'), stop = $('[aria-label="Stop streaming"]');
  send.onclick = function () { ask($('#prompt-textarea').value); };
  function ask(prompt) {
    var search = toggle.getAttribute('aria-pressed') === 'true';
    show(send, false); show(stop, true);
    fetch('backend-anon/f/conversation', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: prompt, search: search }) }).then(function (res) {
      if (res.status === 401) { show($('#modal-no-auth-login'), true); return; }
      if (res.status === 429) { show($('[data-testid="rate-limit-notice"]'), true); return; }
      if (res.status === 403) {
        show($('#challenge-form'), true);
        if (res.headers.get('x-clears')) setTimeout(function () { show($('#challenge-form'), false); ask(prompt); }, 1000);
        return;
      }
      var msg = document.createElement('div');
      msg.setAttribute('data-message-author-role', 'assistant');
      var box = document.createElement('div');
      box.className = res.headers.get('x-changed') ? 'prose-answer' : 'markdown prose';
      msg.appendChild(box); $('#thread').appendChild(msg);
      var reader = res.body.getReader(), dec = new TextDecoder(), buf = '', text = '', path = '', citations = [];
      function handle(data) {
        if (data === '[DONE]') return;
        var ev = JSON.parse(data);
        if (ev.p !== undefined) path = ev.p;
        if (ev.v && ev.v.message) { msg.setAttribute('data-message-model-slug', ev.v.message.metadata.model_slug); return; }
        var ops = ev.o === 'patch' ? ev.v : [{ p: path, v: ev.v }];
        ops.forEach(function (op) {
          if (op.p === '/message/content/parts/0') text += op.v;
          if (op.p === '/message/metadata/citations') citations = op.v;
        });
        box.innerHTML = md(text);
      }
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return finish();
          buf += dec.decode(r.value, { stream: true });
          var at;
          while ((at = buf.indexOf('\\n\\n')) >= 0) {
            var line = buf.slice(0, at); buf = buf.slice(at + 2);
            if (line.indexOf('data: ') === 0) handle(line.slice(6));
          }
          return pump();
        });
      }
      function finish() {
        if (citations.length) {
          var list = document.createElement('div'); list.className = 'citations';
          list.innerHTML = citations.map(function (c) { return '<a class="citation" href="' + esc(c.url) + '"><span class="citation-title">' + esc(c.title) + '</span> <span class="citation-snippet">' + esc(c.text) + '</span></a>'; }).join('');
          msg.appendChild(list);
        }
        show(stop, false); show(send, true);
      }
      return pump();
    });
  }`,
  );
}

export function llm2Page(): string {
  return page(
    'Assistant',
    `<div class="consent-dialog overlay"><div><p>Before you continue</p><button class="accept-all">Accept all</button></div></div>
<header><button data-test-id="bard-mode-menu-button">2.5 Sim</button></header>
<main><div id="chat-history"></div>
<rich-textarea><div class="ql-editor" contenteditable="true" role="textbox"></div></rich-textarea>
<button aria-label="Send message">Send</button><button aria-label="Stop generating" hidden>Stop</button>
<div class="sign-in-wall" hidden>Sign in to continue</div><div id="captcha-form" hidden>Unusual traffic</div>
<div class="quota-notice" hidden>You have reached your limit</div></main>`,
    `
  $('.consent-dialog button').onclick = function () { $('.consent-dialog').remove(); };
  var send = $('[aria-label="Send message"]'), stop = $('[aria-label="Stop generating"]');
  send.onclick = function () { ask($('.ql-editor').innerText); };
  function ask(prompt) {
    show(send, false); show(stop, true);
    fetch('_/generate', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prompt: prompt }) }).then(function (res) {
      if (res.status === 401) { show($('.sign-in-wall'), true); return; }
      if (res.status === 429) { show($('.quota-notice'), true); return; }
      if (res.status === 403) {
        show($('#captcha-form'), true);
        if (res.headers.get('x-clears')) setTimeout(function () { show($('#captcha-form'), false); ask(prompt); }, 1000);
        return;
      }
      return res.json().then(render);
    });
  }
  function render(a) {
    var resp = document.createElement('model-response');
    var content = document.createElement(a.changed ? 'div' : 'message-content');
    content.className = 'markdown';
    content.innerHTML = a.html;
    resp.appendChild(content); $('#chat-history').appendChild(resp);
    // Word by word: every text node starts empty and fills in, one word per tick.
    var walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT), nodes = [], n;
    while ((n = walker.nextNode())) { nodes.push({ node: n, words: n.data.split(/(?=\\s)/) }); n.data = ''; }
    var i = 0, w = 0;
    var timer = setInterval(function () {
      if (a.endless) { content.appendChild(document.createTextNode(' more')); return; }
      while (i < nodes.length && w >= nodes[i].words.length) { i++; w = 0; }
      if (i >= nodes.length) { clearInterval(timer); return done(); }
      nodes[i].node.data += nodes[i].words[w++];
    }, 8);
    function done() {
      var list = document.createElement('div'); list.className = 'sources-list';
      list.innerHTML = a.citations.map(function (c) { return '<a class="source-link" href="' + esc(c.url) + '"><span class="source-title">' + esc(c.title) + '</span><span class="source-snippet">' + esc(c.text) + '</span></a>'; }).join('');
      resp.appendChild(list);
      show(stop, false); show(send, true);
    }
  }`,
  );
}

export function llm3Home(): string {
  return page(
    'Ask',
    `<div id="consent-modal" class="overlay"><div><p>Cookies?</p><button data-testid="consent-accept">Accept</button></div></div>
<main><textarea id="ask-input" placeholder="Ask anything..."></textarea><button aria-label="Submit">Ask</button></main>`,
    `
  $('#consent-modal button').onclick = function () { $('#consent-modal').remove(); };
  $('[aria-label="Submit"]').onclick = function () {
    var q = $('#ask-input').value;
    location.href = 'search/new?q=' + encodeURIComponent(q);
  };`,
  );
}

/** The result page; `data` is the answer as JSON (rendered progressively by the page). */
export function llm3Result(data: unknown, mode: string): string {
  const walls: Record<string, string> = {
    login: '<div data-testid="login-modal" class="overlay"><div>Sign in to ask more</div></div>',
    challenge: '<div id="challenge-running" class="overlay"><div>Checking your browser</div></div>',
    'challenge-clears': '<div id="challenge-running" class="overlay"><div>Checking your browser</div></div>',
    'rate-limit': '<div data-testid="rate-limit"><p>Too many questions. Try later.</p></div>',
  };
  const wall = walls[mode] ?? '';
  const blocked = wall !== '' && mode !== 'challenge-clears';
  return page(
    'Result',
    `${wall}<main><span data-testid="answer-model"></span><div id="answer"></div><div class="sources"></div><ul class="related-queries"></ul><div id="actions"></div></main>`,
    `
  var a = ${JSON.stringify(blocked ? null : data).replace(/</g, '\\u003c')};
  function start() {
    if (!a) return;
    $('[data-testid="answer-model"]').textContent = a.model;
    var box = document.createElement('div'); box.className = a.changed ? 'answer-body' : 'prose';
    $('#answer').appendChild(box);
    var html = a.html, at = 0;
    var timer = setInterval(function () {
      if (a.endless) { box.insertAdjacentHTML('beforeend', '<p>more</p>'); return; }
      at = Math.min(html.length, at + 40);
      // Cut only between tags so the partial HTML stays well formed enough to show.
      var cut = html.lastIndexOf('>', at) + 1;
      box.innerHTML = html.slice(0, cut > 0 ? cut : 0);
      if (at >= html.length) { clearInterval(timer); box.innerHTML = html; finish(); }
    }, 15);
  }
  function finish() {
    $('.sources').innerHTML = a.sources.map(function (s) { return '<a class="source" href="' + esc(s.url) + '"><span class="source-title">' + esc(s.title) + '</span><span class="source-domain">' + esc(s.domain) + '</span></a>'; }).join('');
    $('.related-queries').innerHTML = a.related.map(function (r) { return '<li class="related-query">' + esc(r) + '</li>'; }).join('');
    $('#actions').innerHTML = '<button aria-label="Helpful">Helpful</button>';
  }
  ${mode === 'challenge-clears' ? "setTimeout(function () { $('#challenge-running').remove(); start(); }, 1000);" : 'start();'}`,
  );
}
