/**
 * Prometheus metrics on prom-client: one registry per service (several services in one
 * process, as in tests, do not share counters) with prom-client's default process and runtime
 * metrics (`process_*` CPU, memory, file descriptors; `nodejs_*` heap, GC pauses by kind,
 * event-loop lag and its percentiles, active handles), gauges read at scrape time (queue depth,
 * farm in-flight), and the two request metrics.
 *
 * The request metrics are counted on the hot path in plain Maps and handed to prom-client at
 * scrape time (`get()` of a Counter and a Histogram subclass): prom-client's own `inc`/`observe`
 * (label validation and hashing per call) measured 3.2 µs per request against 1.0 µs here.
 * Main thread only (uWS runs every handler on it). `route` is the route table's path (bounded
 * cardinality), never the raw URL.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const BUCKETS_MS = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 150000];

export type GaugeReader = () => Record<string, number>;

interface Buckets {
  method: string;
  route: string;
  /** Observations per bucket (not cumulative); the last slot is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

type CounterValues = Awaited<ReturnType<Counter['get']>>;
type HistogramValues = Awaited<ReturnType<Histogram['get']>>;

/** `gleaner_http_requests_total`, read from the Metrics' Map at scrape time. */
class RequestCounter extends Counter<'method' | 'route' | 'status'> {
  constructor(
    registry: Registry,
    private readonly counts: Map<string, number>,
  ) {
    super({ name: 'gleaner_http_requests_total', help: 'HTTP requests by route and status.', labelNames: ['method', 'route', 'status'], registers: [registry] });
  }

  override async get(): Promise<CounterValues> {
    const values: CounterValues['values'] = [];
    for (const [key, value] of this.counts) {
      const [method, route, status] = key.split('\u0000');
      values.push({ value, labels: { method, route, status } });
    }
    // The base object (name, help, type) with our values: the prom-client side holds no counts.
    return { ...(await super.get()), values };
  }
}

/** `gleaner_http_request_duration_seconds`, read from the Metrics' Map at scrape time. */
class LatencyHistogram extends Histogram<'method' | 'route'> {
  constructor(
    registry: Registry,
    private readonly buckets: Map<string, Buckets>,
  ) {
    super({ name: 'gleaner_http_request_duration_seconds', help: 'HTTP request latency by route.', labelNames: ['method', 'route'], buckets: BUCKETS_MS.map((ms) => ms / 1000), registers: [registry] });
  }

  override get(): Promise<HistogramValues> {
    return this.getForPromString();
  }

  /** What prom-client's registry asks a histogram for when it writes the text format (it prefers this to `get`). */
  async getForPromString(): Promise<HistogramValues> {
    const name = 'gleaner_http_request_duration_seconds';
    const values: HistogramValues['values'] = [];
    for (const h of this.buckets.values()) {
      let cumulative = 0;
      for (let i = 0; i < BUCKETS_MS.length; i++) {
        cumulative += h.counts[i];
        const labels: Record<string, string | number> = { method: h.method, route: h.route, le: BUCKETS_MS[i] / 1000 };
        values.push({ metricName: `${name}_bucket`, value: cumulative, labels });
      }
      const inf: Record<string, string | number> = { method: h.method, route: h.route, le: '+Inf' };
      values.push({ metricName: `${name}_bucket`, value: h.count, labels: inf });
      values.push({ metricName: `${name}_sum`, value: h.sum / 1000, labels: { method: h.method, route: h.route } });
      values.push({ metricName: `${name}_count`, value: h.count, labels: { method: h.method, route: h.route } });
    }
    // Histogram's own get() calls this method, so the base object is written here. prom-client's
    // typings declare `type` as a numeric enum; its runtime and the text format use the string.
    return { name, help: 'HTTP request latency by route.', type: 'histogram' as unknown as HistogramValues['type'], aggregator: 'sum', collect: () => undefined, values };
  }
}

export class Metrics {
  private readonly registry = new Registry();
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Buckets>();
  private readonly readers: GaugeReader[] = [];
  private readonly gauges = new Map<string, Gauge>();
  private readonly sections: Array<() => string> = [];
  /** Failed assistant jobs by assistant and failure kind: a broken selector shows within the hour. */
  private readonly assistantFailures: Counter<'assistant' | 'kind'>;
  /** Job API logins: scrypt checks run, and attempts a limit refused (jobapi/login.ts). */
  readonly logins: { checked(): void; limited(by: string): void };
  /** Built-in parses by route and parse status: a layout change upstream shows as a rise of `partial`. */
  private readonly parseStatuses: Counter<'route' | 'status'>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    new RequestCounter(this.registry, this.requests);
    new LatencyHistogram(this.registry, this.latency);
    this.assistantFailures = new Counter({
      name: 'gleaner_assistant_failures_total',
      help: 'Failed assistant jobs by assistant and failure kind.',
      labelNames: ['assistant', 'kind'],
      registers: [this.registry],
    });
    const checks = new Counter({ name: 'gleaner_jobapi_password_checks_total', help: 'Job API passwords checked with scrypt (cache misses).', registers: [this.registry] });
    const limited = new Counter({ name: 'gleaner_jobapi_logins_limited_total', help: 'Job API logins refused by a limit (429), by limit.', labelNames: ['by'], registers: [this.registry] });
    this.logins = { checked: () => checks.inc(), limited: (by) => limited.inc({ by }) };
    this.parseStatuses = new Counter({
      name: 'gleaner_parse_status_total',
      help: 'Pages parsed by a built-in parser, by route and parse status (parsed, partial, unrecognised, blocked).',
      labelNames: ['route', 'status'],
      registers: [this.registry],
    });
  }

  /** A finished task's built-in parses (counts by status). Once per task: prom-client's counter is fine here. */
  parseStatus(route: string, counts: Readonly<Record<string, number | undefined>>): void {
    for (const [status, n] of Object.entries(counts)) if (n) this.parseStatuses.inc({ route, status }, n);
  }

  /** A failed assistant job by failure kind (`login`, `selector`, ...). Rare: prom-client's own counter is fine here. */
  assistantFailure(assistant: string, kind: string): void {
    this.assistantFailures.inc({ assistant, kind });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observe(method: string, route: string, status: number, ms: number): void {
    const key = `${method}\u0000${route}\u0000${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const hkey = `${method}\u0000${route}`;
    let h = this.latency.get(hkey);
    if (!h) this.latency.set(hkey, (h = { method, route, counts: new Array<number>(BUCKETS_MS.length).fill(0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS_MS.length; i++) {
      if (ms <= BUCKETS_MS[i]) {
        h.counts[i]++;
        break;
      }
    }
    h.sum += ms;
    h.count++;
  }

  /** Gauges whose values `reader` gives at each scrape (names fixed by the reader). */
  addGauges(reader: GaugeReader): void {
    this.readers.push(reader);
  }

  /** A block of ready-made exposition lines (labelled gauges such as per-account quota use). */
  addSection(reader: () => string): void {
    this.sections.push(reader);
  }

  async render(): Promise<string> {
    for (const reader of this.readers) {
      for (const [name, value] of Object.entries(reader())) {
        let gauge = this.gauges.get(name);
        if (!gauge) this.gauges.set(name, (gauge = new Gauge({ name, help: `${name.replace(/^gleaner_/, '').replace(/_/g, ' ')}, read at scrape time.`, registers: [this.registry] })));
        gauge.set(value);
      }
    }
    const text = await this.registry.metrics();
    const extra = this.sections.map((section) => section().trimEnd()).filter((t) => t !== '');
    return extra.length ? `${text.trimEnd()}\n${extra.join('\n')}\n` : text;
  }
}
