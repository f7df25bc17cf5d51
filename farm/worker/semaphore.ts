/** A counting semaphore whose waits can be abandoned with an AbortSignal. */
export class Semaphore {
  private readonly waiters: Array<{ resolve: () => void; reject: (err: unknown) => void; signal: AbortSignal; onAbort: () => void }> = [];

  constructor(private free: number) {}

  get waiting(): number {
    return this.waiters.length;
  }

  acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free > 0) {
      this.free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      next.signal.removeEventListener('abort', next.onAbort);
      next.resolve();
    } else {
      this.free++;
    }
  }
}
