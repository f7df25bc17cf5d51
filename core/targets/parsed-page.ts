/**
 * The page custom extraction reads on a route that requires `json` yet has a built-in parser
 * (`media/video/subtitles`). There the answer is not in the upstream page the flow ends on (the
 * watch page) but in its later requests (the caption track, the transcript panel), which only
 * the parser puts together. So extraction reads the parser's answer, written as a page: typed
 * JSON-LD, which `json.schema` is filled from by name (offline or by the model), and the same
 * JSON as visible text for `json.prompt`. Pure.
 */

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Drops null members: a field the parser could not fill is absent, not a text "null" to be read as a value. */
const noNulls = (_key: string, value: unknown) => (value === null ? undefined : value);

/** `json` (a parser's answer) as a small HTML page of `type` (a schema.org-style type name). */
export function parsedPage(json: unknown, type: string, title: string): string {
  const data = json !== null && typeof json === 'object' && !Array.isArray(json) ? json : { value: json };
  // `</` escaped so no string can close the script element.
  const ld = JSON.stringify({ '@context': 'https://schema.org', '@type': type, ...data }, noNulls).replace(/<\//g, '<\\/');
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>` +
    `<script type="application/ld+json">${ld}</script></head>` +
    `<body><pre>${escapeHtml(JSON.stringify(data, noNulls, 2))}</pre></body></html>`
  );
}
