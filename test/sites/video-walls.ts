/**
 * The video simulator's walls, written after the real ones' structure (see
 * core/targets/video/wall.ts): the cookie-consent interstitial (a form posting the choice to
 * `/save` with hidden `set_eom` and `continue` fields) and the unusual-traffic captcha page
 * (served under `/sorry/` with HTTP 429, a `captcha-form` and a reCAPTCHA widget).
 *
 * Triggers: watch id `consent0000` always answers the consent page; a search query with
 * `__captcha__` always, and with `__captcha1__` on its first request only, redirects to the
 * captcha; channel `@captcha` answers the captcha.
 */
import type { ServerResponse } from 'node:http';

export function consentPage(site: string, continueUrl: string): string {
  const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Before you continue</title></head><body>' +
    '<div class="consent"><h1>Before you continue</h1><p>We use cookies and data to deliver and maintain our services.</p>' +
    `<form action="${site}/consent/save" method="POST">${hidden('gl', 'DE')}${hidden('m', '0')}${hidden('pc', 'yt')}${hidden('continue', continueUrl)}${hidden('hl', 'en')}${hidden('set_eom', 'true')}` +
    '<button type="submit" aria-label="Reject all">Reject all</button></form>' +
    `<form action="${site}/consent/save" method="POST">${hidden('continue', continueUrl)}${hidden('set_eom', 'false')}<button type="submit">Accept all</button></form>` +
    '</div></body></html>'
  );
}

export function captchaPage(continueUrl: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${continueUrl.replace(/&/g, '&amp;')}</title></head><body>` +
    '<div id="infoDiv">Our systems have detected unusual traffic from your computer network.</div>' +
    `<form id="captcha-form" action="index" method="post"><div class="g-recaptcha" data-sitekey="sim-site-key"></div><input type="hidden" name="continue" value="${continueUrl.replace(/"/g, '&quot;')}"></form>` +
    '</body></html>'
  );
}

/** Redirects to the captcha page, as the platform sends suspected bots away. */
export function toCaptcha(res: ServerResponse, site: string, from: string): true {
  res.writeHead(302, { location: `${site}/sorry/index?continue=${encodeURIComponent(from)}`, 'content-length': 0 });
  res.end();
  return true;
}

export function sendCaptcha(res: ServerResponse, continueUrl: string): true {
  const body = captchaPage(continueUrl);
  res.writeHead(429, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
  return true;
}
