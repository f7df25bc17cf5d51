/**
 * The platform's walls: pages it answers instead of the one asked for. The flows' `check`
 * retries them on another proxy (a fresh session, another address) and, when every attempt met
 * one, returns the last page, which the parsers then call `blocked` rather than an empty
 * success. Recognised by structure, not by the interface language or a host name:
 *
 * - `consent`: the cookie-consent interstitial ("Before you continue"), a form that posts the
 *   choice to `/save` with the hidden `set_eom`/`set_ytc`/`set_apyt` fields and the `continue`
 *   address, served from the site's `consent.` host (the `SOCS` cookie every flow sends keeps
 *   it away; a proxy in another jurisdiction or a dropped cookie brings it back);
 * - `captcha`: the "unusual traffic" page (a `/sorry/` address, `captcha-form`, a reCAPTCHA
 *   widget), usually with HTTP 429;
 * - `bot_check`: a watch page whose player refuses with "Sign in to confirm you're not a bot"
 *   (availability.ts `botCheck`).
 */
import { wallCheck, type Flow } from '../flow.js';
import { availabilityOf } from './availability.js';
import { at, obj } from './json.js';
import { pageData } from './page.js';

export type Wall = 'consent' | 'captcha' | 'bot_check';

const CONSENT_FORM = /<form\b[^>]*\baction=["'][^"']*\/save["'][^>]*>/i;
const CONSENT_FIELD = /<input\b[^>]*\bname=["'](?:set_eom|set_ytc|set_apyt)["']/i;
const CAPTCHA = /\bid=["']captcha-form["']|\bclass=["']g-recaptcha["']|\/recaptcha\/api\.js/i;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** Which wall `html` (fetched at `url`) is, or undefined for a real page or an API answer. */
export function wallOf(html: string, url: string): Wall | undefined {
  const head = html.trimStart();
  if (head.startsWith('{') || head.startsWith(")]}'")) return undefined;
  if (hostOf(url).startsWith('consent.') || (CONSENT_FORM.test(html) && CONSENT_FIELD.test(html))) return 'consent';
  // A real page carries its data; the captcha page carries none.
  if (/\/sorry\//.test(pathOf(url)) || (CAPTCHA.test(html) && !html.includes('ytInitialData'))) return 'captcha';
  if (html.includes('not a bot')) {
    const { player } = pageData(html);
    const state = availabilityOf(player, obj(at(player, 'videoDetails')), obj(at(player, 'microformat', 'playerMicroformatRenderer')));
    if (state.botCheck) return 'bot_check';
  }
  return undefined;
}

const WHAT: Readonly<Record<Wall, string>> = {
  consent: 'its cookie-consent page',
  captcha: 'its unusual-traffic captcha',
  bot_check: 'its bot check ("confirm you are not a bot")',
};

/**
 * The flows' check (core/targets/flow.ts `wallCheck`): a wall is retried on the next proxy;
 * `lastResort: 'return'` hands the last wall to the parser (which says `blocked`, not charged),
 * `'fail'` ends the page with the problem (a download has nothing to return).
 */
export function videoWallCheck(lastResort: 'return' | 'fail'): NonNullable<Flow['check']> {
  return wallCheck((page) => {
    const wall = wallOf(page.body, page.url);
    return wall ? { what: `The platform answered ${WHAT[wall]}`, data: { wall } } : undefined;
  }, lastResort);
}
