/**
 * `systemctl reload gleaner` (SIGHUP): the targets, proxies and storage files are read again
 * and take effect without dropping a request. The three files are checked first; a broken one
 * changes nothing (the service keeps the configuration it has and logs why). Then:
 * - the outbox takes the new bucket credentials for its next attempt;
 * - `svc.config` is replaced (handlers read it per request: search's engine list);
 * - the farm starts a new worker pool with the new configuration for every task from now on
 *   while the old pool finishes what it holds (farm/index.ts `reload`).
 * Other settings (ports, data folder, workers) need a restart.
 */
import { loadConfig, type Config } from '../core/config.js';
import { checkTargets } from '../core/targets/index.js';
import { parseDeliveryConfig, type Farm, type Outbox } from '../farm/index.js';
import type { Services } from './context.js';

export type ReloadableFiles = Pick<Config, 'targets' | 'proxies' | 'storage'>;

/** Reads and checks the files the environment names; throws a readable error for a broken one. */
export function readReloadable(env: Record<string, string | undefined> = process.env): ReloadableFiles {
  const fresh = loadConfig(env);
  const targets = checkTargets(fresh.targets, env.GLEANER_TARGETS ?? 'GLEANER_TARGETS');
  if (targets.errors.length > 0) throw new Error(`the targets file has problems: ${targets.errors.join('; ')}`);
  parseDeliveryConfig(fresh.storage);
  for (const [country, list] of Object.entries(fresh.proxies)) {
    if (!Array.isArray(list) || list.some((p) => typeof p !== 'string')) throw new Error(`GLEANER_PROXIES: ${country} must be a list of proxy URLs`);
  }
  return { targets: fresh.targets, proxies: fresh.proxies, storage: fresh.storage };
}

/** Applies checked files; resolves when the farm's previous pool has drained. */
export async function applyReload(svc: Services, farm: Farm, outbox: Outbox, files: ReloadableFiles): Promise<void> {
  const delivery = parseDeliveryConfig(files.storage);
  const config: Config = Object.freeze({ ...svc.config, targets: files.targets, proxies: files.proxies, storage: files.storage });
  outbox.reconfigure(delivery);
  svc.config = config;
  svc.log.info({ targets: Object.keys(files.targets).length, proxy_pools: Object.keys(files.proxies).length, storage: Object.keys(files.storage) }, 'configuration reloaded; previous workers draining');
  await farm.reload(config);
}
