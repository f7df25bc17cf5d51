/**
 * Random markup soup for the parser tests: every construct that shapes a tree or a token
 * (comments, CDATA, raw-text bodies, odd and unterminated attributes, entities, foreign
 * content, stray end tags), in random order and nesting. Deterministic per seed.
 */
import { mulberry32 } from './random.js';

export function soup(seed: number): string {
  const r = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const tags = ['div', 'p', 'span', 'a', 'li', 'td', 'tr', 'table', 'form', 'br', 'img', 'math', 'mi', 'svg', 'title', 'textarea', 'script', 'style', 'xmp', 'iframe', 'plaintext', 'noscript', 'option'];
  const attrs = [' id="x"', " class='k l'", ' title="a>b &amp; c"', ' href=/x?a=1&b=2', ' data-j=\'{"a":"<b>"}\'', ' disabled', ' =e', ' a="b"c=d', ' v = "w &copy x"', ' u=a"b', ' q="', '/'];
  const bits: string[] = [];
  for (let i = 0, n = 10 + Math.floor(r() * 100); i < n; i++) {
    const x = r();
    const tag = pick(tags);
    if (x < 0.4) bits.push(`<${r() < 0.1 ? tag.toUpperCase() : tag}${Array.from({ length: Math.floor(r() * 3) }, () => pick(attrs)).join('')}>`);
    else if (x < 0.65) bits.push(`</${tag}>`);
    else if (x < 0.85) bits.push(pick(['text', ' ', 'a &amp; b &lt;c&gt; &copy 1', '&notit; &#x41;', '<', '< b', '>', '"', '</ x>', '</>']));
    else bits.push(pick(['<!-- c -->', '<!-->', '<!--- a --!>', '<!DOCTYPE html>', '<?pi?>', '<!x>', '<![CDATA[ a < b ]]>', '<!-- unterminated', '<svg><path d="M0"/></svg>', '<script>if (a < b) x = "</div>";</script>']));
  }
  return bits.join('');
}
