/**
 * What a watch page says about whether the video can be watched: `playabilityStatus.status`
 * (`OK`, `LOGIN_REQUIRED`, `UNPLAYABLE`, `ERROR`, `AGE_CHECK_REQUIRED`, ...) with its localised
 * reason, and the structured hints that do not depend on the interface language (the legacy
 * age-gate marker, `isFamilySafe`, `isPrivate`, `isUnlisted`). Values of `availability` are
 * the OSS downloader's, plus `unavailable` (removed or never existed) and `unplayable`.
 */
import { at, obj, str, textOf, type Obj } from './json.js';

export type Availability = 'public' | 'unlisted' | 'private' | 'needs_auth' | 'premium_only' | 'subscriber_only' | 'unplayable' | 'unavailable' | null;

export interface PlayState {
  availability: Availability;
  ageLimit: number;
  status: string | null;
  reason: string | null;
  /** The page is the platform's bot check ("Sign in to confirm you're not a bot"), not the video. */
  botCheck: boolean;
}

const AGE_STATUSES = new Set(['AGE_CHECK_REQUIRED', 'AGE_VERIFICATION_REQUIRED', 'CONTENT_CHECK_REQUIRED']);

export function availabilityOf(player: Obj | undefined, details: Obj | undefined, micro: Obj | undefined): PlayState {
  const ps = obj(at(player, 'playabilityStatus'));
  const status = str(at(ps, 'status'));
  const reason =
    str(at(ps, 'reason')) ??
    textOf(at(ps, 'errorScreen', 'playerErrorMessageRenderer', 'reason')) ??
    textOf(at(ps, 'errorScreen', 'playerLegacyDesktopYpcOfferRenderer', 'itemTitle')) ??
    null;
  const subreason = textOf(at(ps, 'errorScreen', 'playerErrorMessageRenderer', 'subreason')) ?? '';
  const why = `${reason ?? ''} ${subreason} ${str(at(ps, 'messages', 0)) ?? ''}`;
  const ageGate =
    at(ps, 'desktopLegacyAgeGateReason') !== undefined ||
    (status !== null && AGE_STATUSES.has(status)) ||
    /confirm your age|age[- ]restricted|inappropriate for some users/i.test(why);
  const familySafe = at(micro, 'isFamilySafe');
  const ageLimit = ageGate || familySafe === false ? 18 : 0;
  const botCheck = /not a bot/i.test(why);

  let availability: Availability;
  if (!ps && !details) availability = null;
  else if (status === 'ERROR') availability = 'unavailable';
  else if (at(details, 'isPrivate') === true || /\bprivate\b/i.test(why)) availability = 'private';
  else if (ageGate || status === 'LOGIN_REQUIRED') availability = 'needs_auth';
  else if (status === 'UNPLAYABLE') {
    availability = /members|membership/i.test(why) ? 'subscriber_only' : at(ps, 'errorScreen', 'playerLegacyDesktopYpcOfferRenderer') ? 'premium_only' : 'unplayable';
  } else if (at(micro, 'isUnlisted') === true) availability = 'unlisted';
  else availability = 'public';
  return { availability, ageLimit, status, reason, botCheck };
}
