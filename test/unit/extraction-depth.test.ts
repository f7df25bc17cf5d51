/**
 * Issue 24.A, the extractor's part: every walk of the offline extractor over a page is
 * iterative and linear, so a page nested 320,000 deep (`'<p>' + '<div>'.repeat(n) + 'x' +
 * '</div>'.repeat(n)`) is read without overflowing the stack and answers what it has (nothing).
 * The tree is built here by domhandler from the parser's events, as htmlparser2 would build it:
 * the parse itself is the DOM builder's concern (core/parsers/depth.ts caps its depth), and its
 * cost is not this test's. bench/extraction/depth.ts measures the extractor's time per doubling.
 */
import { DomHandler } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { extractFromDocument } from '../../core/extraction/offline.js';
import { compileSchema } from '../../core/extraction/schema.js';
import { nestedDocument } from '../../bench/extraction/nested.js';

describe('offline extraction on a page nested 320,000 deep', () => {
  it('reads it without recursion and fills nothing the page lacks', () => {
    const doc = nestedDocument(320_000, new DomHandler());
    const schema = compileSchema({
      type: 'object',
      properties: {
        heading: { type: 'string' },
        price: { type: 'number' },
        description: { type: 'string' },
        items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
      },
    });
    const r = extractFromDocument(doc, 'http://deep.test/', schema);
    expect([r.json, r.unfilled, r.fields]).toEqual([{}, ['/heading', '/price', '/description', '/items'], undefined]);
  }, 120_000);
});
