/**
 * `device` (spec 2.1) → the kind of profile a request gets (identity/profile.ts chooses the
 * profile itself, per session); identity/headers.ts makes the plain path's headers from it.
 */
import type { DeviceName } from './identity/profile.js';

export type { DeviceName } from './identity/profile.js';
export { useBrowserVersion as useChromeVersion } from './identity/profile.js';

export function deviceFor(value: unknown): DeviceName {
  return value === 'mobile' ? 'mobile' : 'desktop';
}
