/**
 * Drives htmlparser2's streaming Parser into the tree Builder.
 *
 * One deviation from htmlparser2, for the browser's rule on `</form>`: htmlparser2 closes every
 * element opened after the form; browsers remove only the form and leave the rest open, so
 * later `</div>`s close those rather than the form's ancestors. Commerce pages with unbalanced
 * divs inside a buy-box form would otherwise end their <main> early and lose its tail.
 * This reaches into the parser (`onclosetag(start, end)` is the tokenizer callback, `stack` is
 * private and top-first in htmlparser2 12); a unit test pins the behaviour.
 */
import type { Handler } from 'htmlparser2';
import { DepthCappedParser } from '../parsers/depth.js';
import { Builder } from './builder.js';
import type { Doc } from './tree.js';

class FormParser extends DepthCappedParser {
  constructor(
    handler: Partial<Handler>,
    private readonly src: string,
    private readonly builder: Builder,
  ) {
    super(handler);
  }

  /**
   * Every open tag passes here, also the ones htmlparser2 ignores (a form inside a form) whose
   * attributes still arrive: the previous tag must be opened before they do.
   */
  override onopentagname(start: number, endIndex: number): void {
    this.builder.open();
    super.onopentagname(start, endIndex);
  }

  override onclosetag(start: number, endIndex: number): void {
    if (endIndex - start === 4 && this.src.slice(start, endIndex).toLowerCase() === 'form') {
      const stack = (this as unknown as { stack: unknown }).stack;
      const at = Array.isArray(stack) ? stack.indexOf('form') : -1;
      if (at > 0) {
        (stack as string[]).splice(at, 1);
        this.builder.removeForm();
        this.startIndex = endIndex + 1;
        return;
      }
    }
    super.onclosetag(start, endIndex);
  }
}

/**
 * Parses `html` into a pruned tree. Linear in the input; never throws on malformed markup.
 * @param soft whether the soft noise rules apply (noise.ts).
 */
export function buildTree(html: string, soft: boolean): Doc {
  const b = new Builder(soft);
  // No `onopentag`: without it htmlparser2 builds no attribute object per element.
  const handler: Partial<Handler> = {
    onopentagname: (name) => b.onopentagname(name),
    onattribute: (name, value) => b.onattribute(name, value),
    onclosetag: () => b.onclosetag(),
    ontext: (data) => b.ontext(data),
  };
  new FormParser(handler, html, b).end(html);
  b.finish();
  return {
    nodes: b.nodes,
    root: b.root,
    body: b.body,
    main: b.main,
    articles: b.articles,
    chars: b.chars,
    mainChars: b.mainChars,
    articleChars: b.articleChars,
    baseHref: b.baseHref,
    softDrops: b.softDrops,
  };
}
