/**
 * Bot walls and captcha pages, told apart from the product or listing the flow asked for. The
 * parsers answer `blocked` for them and the farm retries the page on another proxy; returning
 * such a page as an empty product would be a silent wrong answer.
 *
 * Two kinds of evidence: a title that names the wall (conclusive on any page), and the markers
 * of the common challenge vendors (conclusive only on a small page: a real product page may
 * load a captcha script for its login form).
 */

const WALL_TITLE =
  /captcha|robot check|are you (a )?(human|robot)|verify (that )?you are (a )?human|access denied|attention required|just a moment|pardon our interruption|security check|bot (check|detection)|request (unsuccessful|blocked)|you have been blocked|unusual traffic|too many requests/i;

const WALL_MARKERS = [
  '/errors/validateCaptcha',
  'To discuss automated access to',
  'cf-chl-',
  '/cdn-cgi/challenge-platform',
  'px-captcha',
  'captcha-delivery.com',
  '_Incapsula_Resource',
  'distil_r_captcha',
  'perimeterx',
  'Please enable JS and disable any ad blocker',
  "You don't have permission to access",
];

/** Above this size a page is content that happens to load a challenge script, not a wall. */
const SMALL_PAGE = 150_000;

export function isBlocked(body: string): boolean {
  const head = body.slice(0, 20_000);
  const title = /<title[^>]*>([^<]{0,300})<\/title>/i.exec(head)?.[1] ?? '';
  if (WALL_TITLE.test(title)) return true;
  if (body.length > SMALL_PAGE) return false;
  return WALL_MARKERS.some((m) => body.includes(m));
}
