/**
 * Waiting for a condition with a deadline that fails the test with a message (never a fixed
 * sleep, never a loop that gives up silently).
 */

export type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with `probe`'s first truthy value (it may be async: an HTTP poll), polling every
 * `everyMs`; rejects with "`what`: not within `ms` ms (last: ...)" at the deadline.
 */
export async function until<T>(probe: () => T | Promise<T>, what: string, ms = 20_000, everyMs = 25): Promise<Truthy<T>> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (last) return last as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(last)?.slice(0, 300)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
