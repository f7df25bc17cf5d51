/**
 * Values Chromium derives itself, reproduced exactly: the brand lists of `userAgentData` and
 * `Sec-CH-UA` (GREASE brand and shuffle seeded by the major version), `Accept-Language` from
 * the language list, `navigator.deviceMemory` from the host's memory, and the WebGL strings of
 * its software renderer. Pure functions of their inputs, kept apart from profile.ts (which
 * chooses a session's device, locale and version) so each can be checked against the real
 * browser's output on its own (test/unit/identity-profile.test.ts).
 */

export interface Brand {
  brand: string;
  version: string;
}

/** What Chromium's WebGL reports without a GPU (SwiftShader through ANGLE). */
export const SOFTWARE_WEBGL = {
  vendor: 'Google Inc. (Google)',
  renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
} as const;

/**
 * Chromium's brand lists (components/embedder_support/user_agent_utils.cc): a GREASE brand
 * seeded by the major version, "Chromium", and the product brand if any, shuffled by a
 * permutation also seeded by the major version. Same output as the real browser, every release.
 */
export function brandLists(major: number, full: string, product: string | undefined): { brands: Brand[]; fullVersionList: Brand[] } {
  const chars = [' ', '(', ':', '-', '.', '/', ')', ';', '=', '?', '_'];
  const greaseVersions = ['8', '99', '24'];
  const grease = `Not${chars[major % chars.length]}A${chars[(major + 1) % chars.length]}Brand`;
  const gv = greaseVersions[major % greaseVersions.length];
  const names = [grease, 'Chromium', ...(product ? [product] : [])];
  const short = names.map((brand, i) => ({ brand, version: i === 0 ? gv : String(major) }));
  const long = names.map((brand, i) => ({ brand, version: i === 0 ? `${gv}.0.0.0` : full }));
  return { brands: shuffle(short, major), fullVersionList: shuffle(long, major) };
}

const ORDERS_3 = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/** Chromium's ShuffleBrandList: `order[i]` is where entry i lands. */
function shuffle<T>(list: T[], seed: number): T[] {
  const order = list.length === 2 ? [seed % 2, (seed + 1) % 2] : ORDERS_3[seed % ORDERS_3.length];
  const out = new Array<T>(list.length);
  list.forEach((item, i) => (out[order[i]] = item));
  return out;
}

/** `Accept-Language` as Chrome builds it from the language list: q falls by 0.1 down to 0.1. */
export function acceptLanguageOf(languages: readonly string[]): string {
  return languages.map((lang, i) => (i === 0 ? lang : `${lang};q=${(Math.max(1, 10 - i) / 10).toFixed(1)}`)).join(',');
}

/** Chromium's ApproximatedDeviceMemory: the nearer power of two of the GiB, ties to the lower. */
export function approximateMemory(bytes: number): number {
  const gib = bytes / 2 ** 30;
  if (gib <= 0.25) return 0.25;
  const lower = 2 ** Math.floor(Math.log2(gib));
  return gib - lower <= lower * 2 - gib ? lower : lower * 2;
}
