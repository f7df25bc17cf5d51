/**
 * The one address classifier (farm/net/addresses.ts), as every path sees it: the fetch and
 * browser guard and deliveries (one guard: net/ssrf.ts) must give the same
 * verdict for every form of every address. Issue 16's security gap: `64:ff9b:1::a00:1` (10.0.0.1
 * behind a local NAT64) passed the fetch classifier; 6to4, Teredo and ::ffff:0:0:0/96 forms
 * were judged differently by the two.
 */
import { describe, expect, test } from 'vitest';
import { forbiddenAddress as fetchVerdict, checkUrl } from '../../farm/net/ssrf.js';
import { isForbiddenAddress as deliveryRefuses } from '../../farm/delivery/index.js';
import { forbiddenAddress } from '../../farm/net/addresses.js';

/** [address, refused?] — every form, grouped by what it is. */
const MATRIX: Array<[string, boolean]> = [
  // IPv4 special ranges
  ['0.0.0.0', true], ['0.1.2.3', true], ['10.0.0.1', true], ['10.255.255.255', true], ['100.64.0.1', true],
  ['100.100.100.200', true], ['100.127.255.254', true], ['127.0.0.1', true], ['127.255.0.9', true],
  ['169.254.169.254', true], ['172.16.0.1', true], ['172.31.255.255', true], ['192.0.0.8', true], ['192.0.2.1', true],
  ['192.88.99.1', true], ['192.168.1.1', true], ['198.18.0.1', true], ['198.19.255.255', true], ['198.51.100.7', true],
  ['203.0.113.9', true], ['224.0.0.1', true], ['239.255.255.250', true], ['240.0.0.1', true], ['255.255.255.255', true],
  // IPv4 public
  ['8.8.8.8', false], ['1.1.1.1', false], ['93.184.216.34', false], ['172.32.0.1', false], ['100.128.0.1', false],
  ['169.255.0.1', false], ['11.0.0.1', false], ['198.20.0.1', false],
  // IPv6 special ranges
  ['::', true], ['::1', true], ['[::1]', true], ['fe80::1', true], ['fe80::1%eth0', true], ['fec0::1', true],
  ['fc00::1', true], ['fd00:ec2::254', true], ['ff02::1', true], ['ff0e::1', true], ['100::1', true],
  ['2001:db8::1', true], ['2001:2::1', true], ['2001:10::1', true], ['2001:20::1', true], ['3fff::1', true],
  ['5f00::1', true], ['4000::1', true], ['::7f00:1', true], ['::127.0.0.1', true], ['::808:808', true],
  // IPv6 global unicast
  ['2606:4700:4700::1111', false], ['2a00:1450:4001:81c::200e', false], ['2001:4860:4860::8888', false],
  // IPv4-mapped ::ffff:0:0/96, both spellings
  ['::ffff:127.0.0.1', true], ['::ffff:7f00:1', true], ['::ffff:10.0.0.1', true], ['::ffff:a00:1', true],
  ['::ffff:169.254.169.254', true], ['::ffff:8.8.8.8', false], ['::ffff:808:808', false], ['[::ffff:127.0.0.1]', true],
  // IPv4-translated ::ffff:0:0:0/96 (RFC 6145)
  ['::ffff:0:7f00:1', true], ['::ffff:0:10.0.0.1', true], ['::ffff:0:808:808', false],
  // NAT64 well-known 64:ff9b::/96
  ['64:ff9b::7f00:1', true], ['64:ff9b::a00:1', true], ['64:ff9b::10.0.0.1', true], ['64:ff9b::a9fe:a9fe', true],
  ['64:ff9b::808:808', false], ['64:ff9b::8.8.8.8', false],
  // NAT64 local-use 64:ff9b:1::/48 (RFC 8215), any RFC 6052 layout
  ['64:ff9b:1::a00:1', true], ['64:ff9b:1::10.0.0.1', true], ['64:ff9b:1:abcd::a00:1', true],
  ['64:ff9b:1:a00:1::', true], // /48 layout: 10.0 | u | 0.1
  ['64:ff9b:1:0:a:1::', true], // /64 layout: u | 10.0.0.1
  ['64:ff9b:1::808:808', true], // the /48 reading is 0.0.0.0: refused (every reading must be public)
  ['64:ff9b:1:808:8:808:808:808', false], // 8.8.8.8 in every layout
  // 6to4 2002::/16
  ['2002:7f00:1::', true], ['2002:7f00:1::1', true], ['2002:a00:1::1', true], ['2002:c0a8:101::1', true],
  ['2002:808:808::1', false],
  // Teredo 2001::/32: server bits 32-63, client = last 32 bits inverted
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', true], // client 10.0.0.1
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', true], // client 127.0.0.1
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', true], // server 10.0.0.1, client 8.8.8.8
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', false], // server 65.54.227.120, client 8.8.8.8
  // not addresses
  ['not-an-ip', true], ['', true], ['1.2.3.4.5', true], ['::g', true],
];

describe('one classifier for every path', () => {
  test.each(MATRIX)('%s refused: %s', (address, refused) => {
    expect(forbiddenAddress(address) !== undefined).toBe(refused);
    expect(fetchVerdict(address) !== undefined).toBe(refused);
    expect(deliveryRefuses(address)).toBe(refused);
  });

  test('literal hosts in URLs are judged the same on the fetch and delivery paths', () => {
    const closed = { allowPrivate: false, hosts: {} };
    let checked = 0;
    for (const [address, refused] of MATRIX) {
      let url: URL;
      try {
        url = new URL(`http://${address.includes(':') && !address.startsWith('[') ? `[${address}]` : address}/`);
      } catch {
        continue; // not a URL host (zone ids, garbage)
      }
      if (!/^[\d.]+$|^\[/.test(url.hostname)) continue; // a name, not a literal
      checked++;
      let fetchRefuses = false;
      try {
        checkUrl(url.href, closed);
      } catch (err) {
        fetchRefuses = (err as { code?: string }).code === 'TARGET_FORBIDDEN';
      }
      expect([url.hostname, fetchRefuses]).toEqual([url.hostname, refused]);
    }
    expect(checked).toBeGreaterThan(80);
  });

  test('refusals say why, naming the IPv4 inside', () => {
    expect(forbiddenAddress('64:ff9b:1::a00:1')).toBe('64:ff9b:1::a00:1 carries the private IPv4 address 10.0.0.1');
    expect(forbiddenAddress('2001:0:4136:e378:8000:63bf:f5ff:fffe')).toBe('2001:0:4136:e378:8000:63bf:f5ff:fffe carries the private IPv4 address 10.0.0.1');
    expect(forbiddenAddress('fd00:ec2::254')).toBe('fd00:ec2::254 is a private or reserved IPv6 address');
    expect(forbiddenAddress('not-an-ip')).toBe('not-an-ip is not an IP address');
  });
});
