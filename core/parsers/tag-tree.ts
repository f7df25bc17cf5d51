/**
 * The element tree htmlparser2's `Parser` (HTML mode, as `loadHtml` runs it) builds from a
 * page's tags, without its attribute, text and buffer work: implied closes, void elements, the
 * ignored nested `<form>`, `</p>` and `</br>` without a start tag, foreign content (SVG tag-name
 * casing, integration points). Fed by `TagScanner`, it tells a handler `onopentag` and
 * `onclosetag` in the order and with the `implied` flags the Parser gives DomHandler.
 *
 * The tables and rules are htmlparser2 12.0's (src/Parser.ts); they are not exported, so they
 * are restated here. test/unit/parsers-prune.test.ts holds this tree to htmlparser2's own parse
 * (hand-written cases and random markup), so a change in a later htmlparser2 shows as a failure.
 * It caps the depth as `DepthCappedParser` does (depth.ts): the trees of a deep page agree too.
 */
import { FLAT_AT } from './depth.js';
import { SPECIAL } from './tag-chars.js';

export interface TreeHandler {
  /** An element starts (for a void element, its close follows at once). */
  onopentag(name: string): void;
  /** An element ends: by its own end tag (`implied` false) or implicitly. */
  onclosetag(name: string, implied: boolean): void;
}

const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);

/** Open elements a start tag closes first (while one of them is the current element). */
const openImpliesClose = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', headingTags],
  ['h2', headingTags],
  ['h3', headingTags],
  ['h4', headingTags],
  ['h5', headingTags],
  ['h6', headingTags],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ...['address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre', 'section', 'table', 'ul'].map(
    (t): [string, ReadonlySet<string>] => [t, pTag],
  ),
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);

const voidElements = new Set(['area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

const htmlIntegrationElements = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignObject', 'desc', 'title']);

const svgTagNameAdjustments = new Map(
  [
    'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform', 'clipPath', 'feBlend', 'feColorMatrix',
    'feComponentTransfer', 'feComposite', 'feConvolveMatrix', 'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow',
    'feFlood', 'feFuncA', 'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology', 'feOffset',
    'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence', 'foreignObject', 'glyphRef', 'linearGradient',
    'radialGradient', 'textPath',
  ].map((n) => [n.toLowerCase(), n]),
);

const NONE = 0;
const SVG = 1;
const MATHML = 2;

export class TagTree {
  /** Open elements, the current one last. */
  private readonly stack: string[] = [];
  /** Foreign-content contexts, the current one last. */
  private readonly foreign: number[] = [NONE];
  /** The start tag being read ('' for an ignored nested `<form>`). */
  private tagname = '';
  /** The start tag being read is past the depth cap: an empty element (depth.ts). */
  private flat = false;

  constructor(private readonly handler: TreeHandler) {}

  isInForeignContext(): boolean {
    return this.foreign[this.foreign.length - 1] !== NONE;
  }

  /** The name the Parser gives a tag (lower case already): SVG casing, `image` for `img`. */
  private readTagName(name: string): string {
    if (this.foreign[this.foreign.length - 1] === SVG) return svgTagNameAdjustments.get(name) ?? name;
    // End tags of SVG elements inside integration points match the adjusted name on the stack.
    if (this.foreign.length > 1) {
      const adjusted = svgTagNameAdjustments.get(name);
      if (adjusted !== undefined && this.stack.includes(adjusted)) return adjusted;
    }
    if (!this.isInForeignContext()) return name === 'image' ? 'img' : name;
    return name;
  }

  onopentagname(lower: string): void {
    // Raw-text elements hold no elements, so they are not flattened (depth.ts).
    this.flat = this.stack.length >= FLAT_AT && !(SPECIAL.has(lower) && !this.isInForeignContext());
    this.emitOpenTag(this.readTagName(lower));
  }

  private emitOpenTag(name: string): void {
    this.tagname = name;
    // The spec ignores a second <form> while one is open (attributes, start and all).
    if (name === 'form' && this.stack.includes('form')) {
      this.tagname = '';
      return;
    }
    const closes = openImpliesClose.get(name);
    if (closes) while (this.stack.length > 0 && closes.has(this.stack[this.stack.length - 1] as string)) this.popElement(true);
    if (voidElements.has(name) || this.flat) return;
    this.stack.push(name);
    if (name === 'svg') this.foreign.push(SVG);
    else if (name === 'math') this.foreign.push(MATHML);
    else if (htmlIntegrationElements.has(name)) this.foreign.push(NONE);
  }

  private endOpenTag(): void {
    const name = this.tagname;
    const flat = this.flat;
    this.tagname = '';
    this.flat = false;
    if (name === '') return;
    this.handler.onopentag(name);
    if (voidElements.has(name) || flat) this.handler.onclosetag(name, true);
  }

  onopentagend(): void {
    this.endOpenTag();
  }

  /** `/>`: honoured in foreign content only. */
  onselfclosingtag(): void {
    if (!this.isInForeignContext()) {
      this.endOpenTag();
      return;
    }
    const name = this.tagname;
    this.endOpenTag();
    if (name !== '' && this.stack[this.stack.length - 1] === name) this.popElement(true);
  }

  onclosetag(lower: string): void {
    const name = this.readTagName(lower);
    if (!voidElements.has(name)) {
      const pos = this.stack.lastIndexOf(name);
      if (pos !== -1) {
        while (this.stack.length - 1 > pos) this.popElement(true);
        this.popElement(false);
      } else if (name === 'p') {
        // `</p>` without an open p: an empty p.
        this.emitOpenTag('p');
        this.endOpenTag();
        if (this.stack[this.stack.length - 1] === 'p') this.popElement(false);
      }
    } else if (name === 'br') {
      // `</br>`: a br (not through emitOpenTag: no implied closes).
      this.handler.onopentag('br');
      this.handler.onclosetag('br', false);
    }
  }

  private popElement(implied: boolean): void {
    const name = this.stack.pop() as string;
    if (name === 'svg' || name === 'math' || htmlIntegrationElements.has(name)) this.foreign.pop();
    this.handler.onclosetag(name, implied);
  }

  /** The end of input closes what is open, innermost first. */
  onend(): void {
    for (let i = this.stack.length - 1; i >= 0; i--) this.handler.onclosetag(this.stack[i] as string, true);
  }
}
