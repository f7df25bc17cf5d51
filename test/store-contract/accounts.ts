/** Contract: accounts, keys and users. */
import { expect, test } from 'vitest';
import { eventually, type StoreHarness } from './harness.js';

export function accountsContract(h: StoreHarness): void {
  test('accounts get increasing, distinct client ids and are listed', async () => {
    const store = await h.open();
    const a = await store.accounts.createAccount({ name: 'first' });
    const b = await store.accounts.createAccount({ name: 'second', entitlements: ['se1/*'], admin: true });
    expect(b.clientId).toBeGreaterThan(a.clientId);
    expect([a.entitlements, a.admin, b.entitlements, b.admin]).toEqual([['*'], false, ['se1/*'], true]);
    expect(a.webhookSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(store.accounts.getAccount(b.clientId)).toEqual(b);
    expect(store.accounts.listAccounts().map((x) => x.name)).toEqual(['first', 'second']);
    expect(store.accounts.getAccount(b.clientId + 1)).toBeUndefined();
  });

  test('a created key authenticates its account, through this handle and another', async () => {
    const store = await h.open();
    const other = await h.openAnother(store);
    const account = await store.accounts.createAccount({ name: 'keyed' });
    const { key, info } = await store.accounts.createKey(account.clientId, 'ci');
    expect(key).toMatch(/^glk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(info).toEqual({ id: key.slice(4, 20), clientId: account.clientId, label: 'ci', createdAt: expect.any(Number), revokedAt: null });
    expect(store.accounts.authenticate(key)).toEqual(account);
    expect(store.accounts.hasKey(key)).toBe(true);
    expect(store.accounts.listKeys()).toEqual([info]);
    await eventually(() => other.accounts.authenticate(key)?.clientId === account.clientId, undefined, 'key visible on another handle');
    // Wrong secret with a known id, unknown key, malformed text.
    expect(store.accounts.authenticate(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(store.accounts.authenticate(`glk_${'0'.repeat(16)}_${'A'.repeat(43)}`)).toBeUndefined();
    expect(store.accounts.authenticate('short')).toBeUndefined();
  });

  test('an operator-chosen key works like a generated one', async () => {
    const store = await h.open();
    const account = await store.accounts.createAccount({ name: 'bootstrap', admin: true });
    const chosen = 'operator-chosen-key-0123456789';
    expect(store.accounts.hasKey(chosen)).toBe(false);
    const { key } = await store.accounts.createKey(account.clientId, 'bootstrap', chosen);
    expect(key).toBe(chosen);
    expect(store.accounts.authenticate(chosen)?.clientId).toBe(account.clientId);
    await expect(store.accounts.createKey(account.clientId, '', 'has space in it, too long')).rejects.toThrow(/printable ASCII/);
  });

  test('a revoked key is refused at once on its handle and within seconds on another; revoking again says no', async () => {
    const store = await h.open();
    const other = await h.openAnother(store);
    const account = await store.accounts.createAccount({ name: 'revoked' });
    const { key, info } = await store.accounts.createKey(account.clientId);
    await eventually(() => other.accounts.authenticate(key) !== undefined, undefined, 'key visible on another handle');
    expect(await other.accounts.revokeKey(info.id)).toBe(true);
    await eventually(() => store.accounts.authenticate(key) === undefined, undefined, 'revocation visible on the first handle');
    expect(other.accounts.authenticate(key)).toBeUndefined();
    expect(await store.accounts.revokeKey(key)).toBe(false);
    expect(store.accounts.listKeys()[0]!.revokedAt).toEqual(expect.any(Number));
    expect(await store.accounts.revokeKey('0123456789abcdef')).toBe(false);
  });

  test('Job API users verify with their password only', async () => {
    const store = await h.open();
    const account = await store.accounts.createAccount({ name: 'user' });
    await store.accounts.createUser(account.clientId, 'alice', 'correct horse');
    expect(store.accounts.hasUser('alice')).toBe(true);
    expect(store.accounts.hasUser('bob')).toBe(false);
    expect(await store.accounts.verifyUser('alice', 'correct horse')).toEqual(account);
    expect(await store.accounts.verifyUser('alice', 'wrong')).toBeUndefined();
    expect(await store.accounts.verifyUser('bob', 'correct horse')).toBeUndefined();
  });

  test('watchRevocations tells a watcher on another handle that keys were revoked, then stops when unsubscribed', async () => {
    const store = await h.open();
    const other = await h.openAnother(store);
    const account = await store.accounts.createAccount({ name: 'watched' });
    const { info } = await store.accounts.createKey(account.clientId);
    const second = await store.accounts.createKey(account.clientId);
    let told = 0;
    const stop = store.accounts.watchRevocations(() => told++);
    expect(await other.accounts.revokeKey(info.id)).toBe(true);
    await eventually(() => told >= 1, undefined, 'the watcher told of a revocation made on another handle');
    stop();
    const before = told;
    expect(await other.accounts.revokeKey(second.info.id)).toBe(true);
    await eventually(() => store.accounts.authenticate(second.key) === undefined, undefined, 'the second revocation visible');
    expect(told).toBe(before);
  });
}
