/**
 * `gleaner` command line: `serve` (default) runs the service; `keys create|list|revoke` and
 * `users create` manage credentials offline, straight in the LMDB store (safe while the
 * service runs: LMDB takes multi-process writers, and the gateway reads keys on every call).
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../core/config.js';
import { checkAssistants, checkTargets } from '../core/targets/index.js';
import { checkAliases } from '../core/jobapi/aliases.js';
import { flushLogs } from '../core/log.js';
import { openStore } from '../core/store/index.js';
import { DELIVERIES_HELP, listDeliveries, retryDeliveries } from './cli-deliveries.js';
import { CLUSTER_HELP, clusterCommand } from './cli-cluster.js';
import { formatQuota, setQuota, SET_QUOTA_USAGE } from './cli-quota.js';
import { doctor, formatChecks } from './doctor.js';
import { readReloadable } from './reload.js';
import { installService } from './service.js';
import { startServer } from './server.js';
import { versionLine } from './version.js';

const HELP = `gleaner — self-hosted web data extraction service

Usage:
  gleaner [serve]                       start the service (Web API on GLEANER_HOST:GLEANER_PORT)
  gleaner keys create [--account N] [--label L] [--entitlements a,b] [--admin]
                                        create a Web API key (a new account unless --account)
  gleaner keys list                     list keys (ids, accounts, labels, revocation)
  gleaner keys revoke <key-id|key>      revoke a key; it gets 401 at once
  gleaner users create <user:password> [--account N]
                                        create a Job API user
  gleaner accounts list                 accounts: client id, name, entitlements, admin flag,
                                        quota and the webhook signing secret
  ${SET_QUOTA_USAGE}
  gleaner doctor                        check the browser, ffmpeg, the data directory, ports and the
                                        targets/proxies/storage files; exit 1 when a check fails
  gleaner install-service [--dry-run] [--user NAME] [--exec PATH] [--root DIR]
                                        (root) install as a systemd service: user, unit, /etc/gleaner/
  gleaner --version                     version and commit
${DELIVERIES_HELP}${CLUSTER_HELP}  gleaner --help                        this text

Environment (defaults): GLEANER_HOST (127.0.0.1), GLEANER_PORT (8080), GLEANER_REALTIME_PORT
(8081), GLEANER_DATA_PORT (8082), GLEANER_DATA_DIR (./data), GLEANER_BOOTSTRAP_API_KEY,
GLEANER_BOOTSTRAP_USER (user:password), GLEANER_TARGETS (file.json), GLEANER_PROXIES (file.json),
GLEANER_ALLOW_PRIVATE (0), GLEANER_CHROMIUM, GLEANER_LLM_URL, GLEANER_LLM_KEY, GLEANER_LLM_MODEL,
GLEANER_WORKERS (cores), GLEANER_CONTEXTS (4), GLEANER_LOG_LEVEL (info),
GLEANER_SYNC_TIMEOUT_MS (150000), GLEANER_MAX_BATCH (5000), GLEANER_RETENTION_MS (86400000),
GLEANER_ASSISTANTS (file.json), GLEANER_ASSISTANT_CONCURRENCY (4),
GLEANER_JOB_MAX_STARTS (3), GLEANER_DELIVERY_HORIZON_MS (86400000), GLEANER_METRICS_TOKEN.
Cluster mode (README "Cluster mode"): GLEANER_CLUSTER (nats://host:port,...), GLEANER_ROLE
(all|gateway|farm), GLEANER_NATS_CREDS (file.creds), GLEANER_CLUSTER_REPLICAS (3 with 3+ servers,
else 1), GLEANER_CLUSTER_NAMESPACE (gleaner), GLEANER_CLUSTER_ACK_WAIT_MS (30000), GLEANER_NODE_ID
(host:port). With GLEANER_CLUSTER set, keys, users, accounts and deliveries act on the cluster.
`;

async function serve(): Promise<void> {
  const config = loadConfig();
  const assistantErrors = config.assistants === undefined ? [] : checkAssistants(config.assistants, process.env.GLEANER_ASSISTANTS ?? 'GLEANER_ASSISTANTS');
  if (assistantErrors.length > 0) {
    process.stderr.write(`gleaner: the assistants file has problems:\n${assistantErrors.map((e) => `  ${e}`).join('\n')}\n`);
    process.exit(2);
  }
  const targets = checkTargets(config.targets, process.env.GLEANER_TARGETS ?? 'GLEANER_TARGETS');
  if (targets.errors.length > 0) {
    // A template the planners cannot fill is a start-up error, not a surprise at the first request.
    process.stderr.write(`gleaner: the targets file has problems:\n${targets.errors.map((e) => `  ${e}`).join('\n')}\n`);
    process.exit(2);
  }
  const aliasErrors = checkAliases(config.sourceAliases);
  if (aliasErrors.length > 0) {
    process.stderr.write(`gleaner: the source aliases file has problems:\n${aliasErrors.map((e) => `  ${e}`).join('\n')}\n`);
    process.exit(2);
  }
  const server = await startServer({
    config,
    // Printed once, on the first start of a fresh store; only hashes are kept. Secrets go to a
    // terminal only: under systemd stdout is the journal, which anyone with journal access reads.
    onGeneratedCredentials: (generated, url) =>
      process.stdout.write(
        process.stdout.isTTY || process.env.GLEANER_PRINT_CREDENTIALS === '1'
          ? `\nGleaner created first credentials on account ${generated.clientId} ("${generated.account}", admin; shown once, store them now):\n` +
              `  Web API key:  ${generated.key}\n` +
              `  Job API user: ${generated.user}:${generated.password}   (Basic auth on the Job API ports)\n` +
              `  Webhook signing secret: ${generated.webhookSecret}\n` +
              `  Try: curl -s -H 'Authorization: Bearer ${generated.key}' ${url}/v1/scrapers\n\n`
          : `\nGleaner created first credentials on account ${generated.clientId} ("${generated.account}", admin) and did not print them: stdout is not a terminal ` +
              `(a journal or a log file would keep them). Create a key with \`gleaner keys create --account ${generated.clientId} --admin\` and a Job API user with ` +
              `\`gleaner users create <user:password> --account ${generated.clientId}\`, or set GLEANER_BOOTSTRAP_API_KEY and GLEANER_BOOTSTRAP_USER; ` +
              `GLEANER_PRINT_CREDENTIALS=1 prints them anyway.\n\n`,
      ),
  });
  if (targets.unknown.length > 0) server.services.log.warn({ tokens: targets.unknown }, 'GLEANER_TARGETS names tokens no target family reads');
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    server.services.log.info({ signal }, 'draining');
    server.close().then(
      () => {
        flushLogs();
        process.exit(0);
      },
      (err: unknown) => {
        server.services.log.error({ err }, 'shutdown failed');
        flushLogs();
        process.exit(1);
      },
    );
  };
  // systemd's ExecReload: re-read the targets, proxies and storage files (reload.ts).
  process.on('SIGHUP', () => {
    let files;
    try {
      files = readReloadable();
    } catch (err) {
      server.services.log.error({ err: (err as Error).message }, 'reload refused; the running configuration is unchanged');
      return;
    }
    server.reload(files).catch((err: unknown) => server.services.log.error({ err }, 'reload failed'));
  });
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function keys(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { account: { type: 'string' }, label: { type: 'string' }, entitlements: { type: 'string' }, admin: { type: 'boolean' } },
  });
  const config = loadConfig();
  const store = await openStore(config);
  try {
    const [sub, arg] = positionals;
    if (sub === 'create') {
      const clientId = values.account
        ? Number(values.account)
        : (await store.accounts.createAccount({
            name: values.label ?? 'cli',
            entitlements: values.entitlements ? values.entitlements.split(',') : ['*'],
            admin: values.admin ?? false,
          })).clientId;
      if (!store.accounts.getAccount(clientId)) throw new Error(`no account ${clientId}`);
      const { key, info } = await store.accounts.createKey(clientId, values.label ?? '');
      process.stdout.write(`${key}\n`);
      process.stderr.write(`key id ${info.id} for account ${clientId} (the key is shown only now)\n`);
    } else if (sub === 'list') {
      for (const k of store.accounts.listKeys()) {
        const account = store.accounts.getAccount(k.clientId);
        process.stdout.write(
          `${k.id}\taccount=${k.clientId}\tlabel=${k.label || '-'}\tentitlements=${account?.entitlements.join(',') ?? '?'}\t` +
            `${k.revokedAt ? `revoked ${new Date(k.revokedAt).toISOString()}` : 'active'}\n`,
        );
      }
    } else if (sub === 'revoke' && arg) {
      const revoked = await store.accounts.revokeKey(arg);
      process.stdout.write(revoked ? `revoked ${arg}\n` : `no active key ${arg}\n`);
      if (!revoked) process.exitCode = 1;
    } else {
      process.stderr.write(HELP);
      process.exitCode = 2;
    }
  } finally {
    await store.close();
  }
}

async function users(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { account: { type: 'string' } } });
  const [sub, spec] = positionals;
  const colon = spec?.indexOf(':') ?? -1;
  if (sub !== 'create' || !spec || colon <= 0) {
    process.stderr.write(HELP);
    process.exitCode = 2;
    return;
  }
  const store = await openStore(loadConfig());
  try {
    const clientId = values.account ? Number(values.account) : (await store.accounts.createAccount({ name: spec.slice(0, colon) })).clientId;
    await store.accounts.createUser(clientId, spec.slice(0, colon), spec.slice(colon + 1));
    process.stdout.write(`user ${spec.slice(0, colon)} for account ${clientId}\n`);
  } finally {
    await store.close();
  }
}

async function accounts(args: string[]): Promise<void> {
  if (args[0] !== 'list' && args[0] !== 'set-quota') {
    process.stderr.write(HELP);
    process.exitCode = 2;
    return;
  }
  const store = await openStore(loadConfig());
  try {
    if (args[0] === 'set-quota') {
      process.exitCode = await setQuota(store, args.slice(1), (line) => process.stdout.write(`${line}\n`));
      return;
    }
    for (const a of store.accounts.listAccounts()) {
      process.stdout.write(
        `${a.clientId}\tname=${a.name}\tentitlements=${a.entitlements.join(',')}\tadmin=${a.admin}\t${formatQuota(store.quotas.quotaOf(a.clientId))}\twebhook_secret=${a.webhookSecret}\n`,
      );
    }
  } finally {
    await store.close();
  }
}

async function deliveries(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'list' && sub !== 'retry') {
    process.stderr.write(HELP);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const store = await openStore(config);
  const write = (line: string) => void process.stdout.write(line);
  try {
    process.exitCode = sub === 'list' ? await listDeliveries(store, rest, write) : await retryDeliveries(store, rest, config.retentionMs, write);
  } finally {
    await store.close();
  }
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') return void process.stdout.write(HELP);
  if (command === '--version' || command === '-v' || command === 'version') return void process.stdout.write(`${versionLine()}\n`);
  if (command === 'serve') return serve();
  if (command === 'keys') return keys(rest);
  if (command === 'users') return users(rest);
  if (command === 'accounts') return accounts(rest);
  if (command === 'deliveries') return deliveries(rest);
  if (command === 'cluster') return void (process.exitCode = await clusterCommand(loadConfig(), rest, (line) => process.stdout.write(`${line}\n`)));
  if (command === 'doctor') {
    const checks = await doctor();
    process.stdout.write(formatChecks(checks));
    process.exitCode = checks.some((c) => c.verdict === 'FAIL') ? 1 : 0;
    return;
  }
  if (command === 'install-service') return void (process.exitCode = installService(rest, (line) => process.stdout.write(`${line}\n`)));
  process.stderr.write(`unknown command ${command}\n\n${HELP}`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`gleaner: ${(err as Error).message}\n`);
  if (process.env.GLEANER_LOG_LEVEL === "debug") process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
