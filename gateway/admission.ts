/**
 * Per-account concurrency: a request that would take an account past its limit gets 429
 * (retry with jittered backoff). Counters live on the main thread; `release` must be called
 * exactly once per successful `acquire` (the pipeline does it in a finally).
 */
export class Admission {
  private readonly inFlight = new Map<number, number>();

  constructor(private readonly limit: number) {}

  acquire(clientId: number, weight = 1): boolean {
    const current = this.inFlight.get(clientId) ?? 0;
    if (current + weight > this.limit) return false;
    this.inFlight.set(clientId, current + weight);
    return true;
  }

  release(clientId: number, weight = 1): void {
    const left = (this.inFlight.get(clientId) ?? 0) - weight;
    if (left > 0) this.inFlight.set(clientId, left);
    else this.inFlight.delete(clientId);
  }

  total(): number {
    let sum = 0;
    for (const n of this.inFlight.values()) sum += n;
    return sum;
  }
}
