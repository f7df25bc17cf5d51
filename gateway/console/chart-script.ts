/**
 * The console's charts, a part of its browser script (script.ts joins it into the page's one
 * closure: `$` and `FAMILIES`/`COLORS` are the script's). Same rules as script.ts: plain ES2020,
 * no backtick, no dollar-brace; values written as text, never as HTML.
 *
 * Each chart is one SVG: a y axis labelled with its unit (0, half and a round top), an x axis of
 * minutes before now, one line per series, and a legend naming each series by its colour.
 */
export const CHART_FUNCTIONS = String.raw`
  function renderCharts(h) {
    var per = h.step_s === 60 ? 'per minute' : 'per ' + h.step_s + ' s';
    chart('#chart-jobs', [{ name: 'done', color: '#59a14f', values: h.jobs_done }, { name: 'failed', color: '#e15759', values: h.jobs_failed }], h, 'jobs ' + per);
    chart('#chart-pages', FAMILIES.map(function (f) { return { name: f.replace('_', ' '), color: COLORS[f], values: h.pages[f] }; }), h, 'pages ' + per);
    chart('#chart-latency', [{ name: 'p50', color: '#4e79a7', values: h.latency_p50 }, { name: 'p95', color: '#f28e2b', values: h.latency_p95 }], h, 'ms (sync requests)');
    chart('#chart-queue', [{ name: 'queued jobs (highest)', color: '#b07aa1', values: h.queue_depth }], h, 'jobs');
  }

  var SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  /** A round upper bound for the y axis: 1, 2 or 5 times a power of ten. */
  function niceMax(v) {
    if (!(v > 0)) return 1;
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    var m = v / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
  }
  function short(n) { return n >= 1e6 ? (n / 1e6) + 'M' : n >= 1e4 ? (n / 1e3) + 'k' : String(Math.round(n * 100) / 100); }

  /**
   * One line per series over the last hour, on a y axis labelled with its unit (0, half, top)
   * and an x axis of minutes before now, with a legend naming each series by its colour.
   * Null points (no data) break the line.
   */
  function chart(sel, series, h, unit) {
    var box = $(sel);
    var W = 360, L = 42, R = 10, T = 18, PH = 100, B = 18;
    var PW = W - L - R;
    var max = 0;
    series.forEach(function (s) { s.values.forEach(function (v) { if (v !== null && v > max) max = v; }); });
    var top = niceMax(max);
    var rows = Math.ceil(series.length / 3);
    var root = svg('svg', { viewBox: '0 0 ' + W + ' ' + (T + PH + B + rows * 14 + 4), role: 'img', 'aria-label': unit + ': ' + series.map(function (s) { return s.name; }).join(', ') });
    root.appendChild(svg('text', { x: 2, y: 11, 'font-size': 10, fill: '#444', class: 'unit' }, unit));
    [0, 0.5, 1].forEach(function (f) {
      var y = T + PH - f * PH;
      root.appendChild(svg('line', { x1: L, x2: L + PW, y1: y, y2: y, stroke: f === 0 ? '#999' : '#e5e5e5' }));
      root.appendChild(svg('text', { x: L - 4, y: y + 3, 'font-size': 9, fill: '#555', 'text-anchor': 'end', class: 'tick-y' }, short(top * f)));
    });
    root.appendChild(svg('line', { x1: L, x2: L, y1: T, y2: T + PH, stroke: '#999' }));
    var n = Math.max(1, (series[0] ? series[0].values.length : 1) - 1);
    var minutes = Math.round((n * h.step_s) / 60);
    [[0, '−' + minutes + ' min', 'start'], [0.5, '−' + Math.round(minutes / 2) + ' min', 'middle'], [1, 'now', 'end']].forEach(function (t) {
      root.appendChild(svg('text', { x: L + t[0] * PW, y: T + PH + 12, 'font-size': 9, fill: '#555', 'text-anchor': t[2], class: 'tick-x' }, t[1]));
    });
    series.forEach(function (s) {
      var pts = [];
      function flush() {
        if (pts.length === 1) {
          var xy = pts[0].split(',');
          root.appendChild(svg('circle', { cx: xy[0], cy: xy[1], r: 2.5, fill: s.color }));
        } else if (pts.length > 1) {
          root.appendChild(svg('polyline', { points: pts.join(' '), fill: 'none', stroke: s.color, 'stroke-width': 1.5 }));
        }
        pts = [];
      }
      s.values.forEach(function (v, i) {
        if (v === null) { flush(); return; }
        var x = L + (i * PW) / n;
        var y = T + PH - (v / top) * PH;
        pts.push(x.toFixed(1) + ',' + y.toFixed(1));
      });
      flush();
    });
    series.forEach(function (s, i) {
      var x = L + (i % 3) * 105, y = T + PH + B + Math.floor(i / 3) * 14;
      var item = svg('g', { class: 'legend-item' });
      item.appendChild(svg('rect', { x: x, y: y, width: 10, height: 10, fill: s.color }));
      item.appendChild(svg('text', { x: x + 14, y: y + 9, 'font-size': 10, fill: '#333' }, s.name));
      root.appendChild(item);
    });
    while (box.firstChild) box.removeChild(box.firstChild);
    box.appendChild(root);
    box.setAttribute('data-max', String(max));
  }

`;
