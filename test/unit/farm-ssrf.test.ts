import { describe, expect, test } from 'vitest';
import { checkUrl, forbiddenAddress, resolveChecked } from '../../farm/net/ssrf.js';

const closed = { allowPrivate: false, hosts: {} };

describe('forbiddenAddress', () => {
  test.each([
    '127.0.0.1', '127.255.0.9', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.254', '0.0.0.0', '224.0.0.1', '239.255.255.250', '255.255.255.255', '198.18.0.1',
    '::1', '::', 'fe80::1', 'fd00:ec2::254', 'fc00::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', '::127.0.0.1', '[::1]',
  ])('%s is refused', (addr) => {
    expect(typeof forbiddenAddress(addr)).toBe('string');
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])(
    '%s is public',
    (addr) => {
      expect(forbiddenAddress(addr)).toBeUndefined();
    },
  );

  test('messages name the address', () => {
    expect(forbiddenAddress('::ffff:127.0.0.1')).toBe('::ffff:127.0.0.1 carries the private IPv4 address 127.0.0.1');
    expect(forbiddenAddress('10.0.0.1')).toBe('10.0.0.1 is a private or reserved IPv4 address');
  });
});

describe('checkUrl', () => {
  test('schemes other than http/https are refused even when private addresses are allowed', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.test/', 'data:text/html,hi', 'javascript:alert(1)']) {
      expect(() => checkUrl(url, { allowPrivate: true, hosts: {} })).toThrowError(/only http and https/);
    }
  });

  test('IP literals are checked without DNS, in every spelling the URL parser accepts', () => {
    for (const url of ['http://127.0.0.1/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/', 'http://[::1]:8080/']) {
      expect(() => checkUrl(url, closed)).toThrowError(/not allowed/);
    }
    expect(checkUrl('http://127.0.0.1/', { allowPrivate: true, hosts: {} }).href).toBe('http://127.0.0.1/');
  });

  test('names pass (they are checked at connect time)', () => {
    expect(checkUrl('https://example.test/a?b', closed).href).toBe('https://example.test/a?b');
  });
});

describe('resolveChecked', () => {
  test('trusted names map to their address; localhost is refused', async () => {
    expect(await resolveChecked('Sim.Test', { allowPrivate: false, hosts: { 'sim.test': '127.0.0.1' } })).toEqual({ address: '127.0.0.1', family: 4 });
    await expect(resolveChecked('localhost', closed)).rejects.toMatchObject({ code: 'TARGET_FORBIDDEN' });
    await expect(resolveChecked('[::1]', closed)).rejects.toMatchObject({ code: 'TARGET_FORBIDDEN' });
  });
});
