/**
 * A promise awaited with a deadline that fails the test with a message (the promise keeps
 * running): for things that end by themselves, such as a process exiting, where
 * test/helpers/wait.ts `until` polls a condition.
 */
export async function settledWithin<T>(p: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
