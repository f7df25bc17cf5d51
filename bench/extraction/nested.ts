/**
 * `'<p>' + '<div>'.repeat(n) + 'x' + '</div>'.repeat(n)` as domhandler builds it from the
 * parser's events (issue 24.A's page), without the parse: for measuring and testing the
 * extractor's own walks apart from the DOM build.
 */
import type { Document, DomHandler } from 'domhandler';

export function nestedDocument(n: number, handler: DomHandler): Document {
  handler.onopentag('p', {});
  handler.onclosetag();
  for (let i = 0; i < n; i++) handler.onopentag('div', {});
  handler.ontext('x');
  for (let i = 0; i < n; i++) handler.onclosetag();
  handler.onend();
  return handler.root;
}
