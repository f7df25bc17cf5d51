/**
 * Prometheus text metrics, kept in plain Maps on the main thread (no locks needed: uWS runs
 * every handler on this one thread). Request counts by route and status, latency histograms
 * by route, and gauges read at scrape time (queue depth, farm in-flight).
 */
const BUCKETS_MS = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 150000];

interface Histogram {
  counts: number[];
  sum: number;
  count: number;
}

export type GaugeReader = () => Record<string, number>;

export class Metrics {
  private readonly requests = new Map<string, number>();
  private readonly latency = new Map<string, Histogram>();
  private readonly gauges: GaugeReader[] = [];
  private readonly sections: Array<() => string> = [];

  /** `route` is the route table's path (bounded cardinality), never the raw URL. */
  observe(method: string, route: string, status: number, ms: number): void {
    const key = `${method}\u0000${route}\u0000${status}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const hkey = `${method}\u0000${route}`;
    let h = this.latency.get(hkey);
    if (!h) this.latency.set(hkey, (h = { counts: new Array<number>(BUCKETS_MS.length).fill(0), sum: 0, count: 0 }));
    for (let i = 0; i < BUCKETS_MS.length; i++) if (ms <= BUCKETS_MS[i]) h.counts[i]++;
    h.sum += ms;
    h.count++;
  }

  addGauges(reader: GaugeReader): void {
    this.gauges.push(reader);
  }

  /** A block of ready-made exposition lines (labelled gauges such as per-account quota use). */
  addSection(reader: () => string): void {
    this.sections.push(reader);
  }

  render(): string {
    const out: string[] = [
      '# HELP gleaner_http_requests_total HTTP requests by route and status.',
      '# TYPE gleaner_http_requests_total counter',
    ];
    for (const [key, n] of this.requests) {
      const [method, route, status] = key.split('\u0000');
      out.push(`gleaner_http_requests_total{method="${method}",route="${esc(route)}",status="${status}"} ${n}`);
    }
    out.push(
      '# HELP gleaner_http_request_duration_seconds HTTP request latency by route.',
      '# TYPE gleaner_http_request_duration_seconds histogram',
    );
    for (const [key, h] of this.latency) {
      const [method, route] = key.split('\u0000');
      const labels = `method="${method}",route="${esc(route)}"`;
      BUCKETS_MS.forEach((le, i) => out.push(`gleaner_http_request_duration_seconds_bucket{${labels},le="${le / 1000}"} ${h.counts[i]}`));
      out.push(`gleaner_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${h.count}`);
      out.push(`gleaner_http_request_duration_seconds_sum{${labels}} ${h.sum / 1000}`);
      out.push(`gleaner_http_request_duration_seconds_count{${labels}} ${h.count}`);
    }
    for (const reader of this.gauges) {
      for (const [name, value] of Object.entries(reader())) {
        out.push(`# TYPE ${name} gauge`, `${name} ${value}`);
      }
    }
    for (const section of this.sections) out.push(section().trimEnd());
    return out.join('\n') + '\n';
  }
}

function esc(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
