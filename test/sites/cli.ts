/**
 * `npm run sim`: the target simulator on a fixed port (SIM_PORT, default 8090), for demos and
 * manual runs. Prints the GLEANER_TARGETS mapping that points every target token at it and,
 * with `--write FILE`, writes it there (test/sites/targets.json is the mapping for 8090).
 */
import { writeFileSync } from 'node:fs';
import { ROUTES } from '../../core/registry/index.js';
import { simTargets } from './commerce.js';
import { startSimulator } from './server.js';

/** Hosts a family reads besides its routes' targets, and where the simulator plays them. */
const EXTRA_HOSTS: Readonly<Record<string, string>> = { video_api: 'video-api', video_suggest: 'video-suggest' };

/** Every target token pointed at the simulator; commerce tokens keep their templates (targets.json). */
export function targetsFor(origin: string): Record<string, { baseUrl: string }> {
  const tokens = [...new Set([...ROUTES.map((r) => r.target), ...Object.keys(EXTRA_HOSTS)])].filter((t) => t !== 'universal').sort();
  const commerce = simTargets(origin);
  // mkt1 serves each marketplace under its own path (`/mkt1/de/...`), as the storefront does per host.
  const base = (t: string) => (t === 'mkt1' ? `${origin}/mkt1/{domain}` : `${origin}/${EXTRA_HOSTS[t] ?? t}`);
  return Object.fromEntries(tokens.map((t) => [t, commerce[t] ?? { baseUrl: base(t) }]));
}

async function main(): Promise<void> {
  const port = Number(process.env.SIM_PORT ?? 8090);
  const sim = await startSimulator({ port });
  const targets = JSON.stringify(targetsFor(sim.origin), null, 2);
  const at = process.argv.indexOf('--write');
  if (at >= 0 && process.argv[at + 1]) writeFileSync(process.argv[at + 1], `${targets}\n`);
  process.stdout.write(`simulator listening on ${sim.origin}\nGLEANER_TARGETS mapping:\n${targets}\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) void main();
