/**
 * HTML → Markdown: small hand-written pages, each asserting the exact Markdown. The page
 * shapes follow real news and retail markup (chrome around one main region, lazy images,
 * misnested buy-box forms); no captured page is reproduced. Speed lives in
 * bench/markdown.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../core/markdown/index.js';

const BASE = 'https://news.example.test/world/2024/story.html';
const md = (html: string, base = BASE): string => htmlToMarkdown(html, base);

describe('blocks and inline formatting', () => {
  it('writes headings, paragraphs and inline styles', () => {
    const html =
      '<h1>Title</h1><p>Some <b>bold</b>, <strong>strong</strong>, <em>em</em>, <i>i</i>, ' +
      '<del>gone</del> and <code>x = 1</code>.</p><h2>Sub</h2><h6>Six</h6><p>Last</p>';
    expect(md(html)).toEqual(
      '# Title\n\nSome **bold**, **strong**, *em*, *i*, ~~gone~~ and `x = 1`.\n\n## Sub\n\n###### Six\n\nLast\n',
    );
  });

  it('collapses whitespace like a browser and moves edge spaces out of markers', () => {
    const html = '<p>  one\n\n   two\t<b> three </b>four<em></em> <b> </b>five&nbsp;&nbsp;six</p>\n\n<div>\n seven </div>';
    expect(md(html)).toEqual('one two **three** four five six\n\nseven\n');
  });

  it('renders unknown and presentational inline elements as their content', () => {
    expect(md('<p><span>a</span><my-widget>b</my-widget> <small>c</small><sup>2</sup> <u>d</u></p>')).toEqual('ab c2 d\n');
  });

  it('joins adjacent identical emphasis and drops markers around blocks', () => {
    expect(md('<p><b>Price:</b><b>$5</b> <strong><div>Block</div></strong></p>')).toEqual(
      '**Price:$5**\n\nBlock\n',
    );
  });

  it('writes line breaks, rules and blockquotes', () => {
    const html =
      '<p>line one<br>line two<br><br>after blank<br></p><hr>' +
      '<blockquote><p>Quoted</p><blockquote>Inner</blockquote><p>More</p></blockquote><p>End</p>';
    expect(md(html)).toEqual(
      'line one\nline two\n\nafter blank\n\n---\n\n> Quoted\n>\n> > Inner\n>\n> More\n\nEnd\n',
    );
  });

  it('uses inline code fences longer than the backticks inside', () => {
    expect(md('<p>Run <code>a`b</code> or <kbd>Ctrl</kbd> <code>  </code>now</p>')).toEqual(
      'Run ``a`b`` or `Ctrl` now\n',
    );
  });
});

describe('lists', () => {
  it('nests lists with four-space continuation', () => {
    const html =
      '<ul><li>One</li><li>Two<ul><li>Two A</li><li>Two B<ol><li>deep</li></ol></li></ul></li>' +
      '<li><p>Three</p><p>Second paragraph</p></li><li>Four</li></ul><p>After</p>';
    expect(md(html)).toEqual(
      '- One\n- Two\n    - Two A\n    - Two B\n        1. deep\n- Three\n\n    Second paragraph\n- Four\n\nAfter\n',
    );
  });

  it('numbers ordered lists from start and nests a list placed directly in a list', () => {
    const html = '<ol start="9"><li>nine</li><li>ten</li></ol><ul><li>a</li><ul><li>a1</li></ul><li>b</li></ul>';
    expect(md(html)).toEqual('9. nine\n10. ten\n\n- a\n    - a1\n- b\n');
  });

  it('drops empty items', () => {
    expect(md('<ul><li> </li><li>kept</li><li><span></span></li></ul>')).toEqual('- kept\n');
  });
});

describe('code blocks', () => {
  it('fences pre with the language from class="language-x" and keeps its whitespace', () => {
    const html =
      '<pre><code class="language-ts">const a = 1;\n\n  if (a) {\n    go();   \n  }\n</code></pre>' +
      '<pre class="lang-sh">echo "```"</pre><pre>  plain\ttab</pre>';
    expect(md(html)).toEqual(
      '```ts\nconst a = 1;\n\n  if (a) {\n    go();\n  }\n```\n\n' +
        '````sh\necho "```"\n````\n\n```\n  plain\ttab\n```\n',
    );
  });

  it('indents a code block inside a list item and reads <br> and line divs in pre', () => {
    const html = '<ol><li>Install:<pre>npm i<br>npm test</pre></li><li>Done</li></ol><pre><div>a</div><div>b</div></pre>';
    expect(md(html)).toEqual('1. Install:\n\n    ```\n    npm i\n    npm test\n    ```\n2. Done\n\n```\na\nb\n```\n');
  });
});

describe('links and images', () => {
  it('makes links and images absolute against the page address', () => {
    const html =
      '<p><a href="next.html">Next</a> <a href="/about">About</a> <a href="//cdn.example.test/x">CDN</a> ' +
      '<a href="https://other.example.test/a b">Other</a> <a href="#top">Top</a> ' +
      '<a href="mailto:desk@example.test">Mail</a></p><p><img src="../img/p.jpg" alt="A [photo]"></p>';
    expect(md(html)).toEqual(
      '[Next](https://news.example.test/world/2024/next.html) [About](https://news.example.test/about) ' +
        '[CDN](https://cdn.example.test/x) [Other](https://other.example.test/a%20b) ' +
        '[Top](https://news.example.test/world/2024/story.html#top) [Mail](mailto:desk@example.test)\n\n' +
        '![A \\[photo\\]](https://news.example.test/world/img/p.jpg)\n',
    );
  });

  it('resolves against <base href>', () => {
    const html =
      '<html><head><base href="https://static.example.test/en/"></head><body>' +
      '<p><a href="page">Page</a> <img src="i.png" alt="i"></p></body></html>';
    expect(md(html)).toEqual('[Page](https://static.example.test/en/page) ![i](https://static.example.test/en/i.png)\n');
  });

  it('drops javascript: links but keeps their text, and drops anchors with no text', () => {
    const html =
      '<p><a href="javascript:void(0)">Share</a> <a href="JavaScript:go()">Go</a> ' +
      '<a href="/empty"></a><a href="/blank"> </a><a name="n">Named</a> <a href="">Here</a></p>';
    expect(md(html)).toEqual('Share Go Named Here\n');
  });

  it('keeps image links, lazy image sources, and drops inline data and pixels', () => {
    const html =
      '<a href="/p/1"><img src="/t/1.jpg" alt=""></a>' +
      '<p><img src="data:image/gif;base64,R0lGOD" data-src="/big/2.jpg" alt="Two">' +
      '<img src="data:image/png;base64,iVBOR" alt="inline"><img src="/px.gif" width="1" height="1"></p>';
    expect(md(html)).toEqual(
      '[![](https://news.example.test/t/1.jpg)](https://news.example.test/p/1)\n\n' +
        '![Two](https://news.example.test/big/2.jpg)\n',
    );
  });

  it('keeps a card link that wraps blocks on its own paragraph, flattened', () => {
    const html =
      '<p>Before</p><a href="/p/42"><div class="card"><h3>Kettle</h3><p>Steel, 1.7 l</p></div></a><p>After</p>';
    expect(md(html)).toEqual('Before\n\n[Kettle Steel, 1.7 l](https://news.example.test/p/42)\n\nAfter\n');
  });

  it('escapes parentheses only when unbalanced in a destination', () => {
    const html = '<a href="/wiki/Foo_(bar)">Foo</a> <a href="/x)y">X</a>';
    expect(md(html)).toEqual('[Foo](https://news.example.test/wiki/Foo_(bar)) [X](https://news.example.test/x%29y)\n');
  });

  it('keeps relative addresses as written when the page address is unusable', () => {
    expect(md('<a href="/a b">A</a> <img src="x.png" alt="x">', 'not a url')).toEqual('[A](/a%20b) ![x](x.png)\n');
  });
});

describe('tables', () => {
  it('writes a GFM table with a th header row, escaping pipes and flattening cells', () => {
    const html =
      '<table><thead><tr><th>Plan</th><th>Price | month</th></tr></thead><tbody>' +
      '<tr><td>Basic</td><td><p>$5</p><p>billed <b>yearly</b></p></td></tr>' +
      '<tr><td><a href="/pro">Pro</a></td><td>$9<br>or $90/yr</td></tr></tbody></table>';
    expect(md(html)).toEqual(
      '| Plan | Price \\| month |\n| --- | --- |\n| Basic | $5 billed **yearly** |\n' +
        '| [Pro](https://news.example.test/pro) | $9 or $90/yr |\n',
    );
  });

  it('uses the first row as header when there is no th, and tolerates colspan and short rows', () => {
    const html =
      '<table><tr><td>a</td><td>b</td><td>c</td></tr><tr><td colspan="2">wide</td><td>z</td></tr>' +
      '<tr><td>short</td></tr><tr><td></td><td></td></tr></table>';
    expect(md(html)).toEqual('| a | b | c |\n| --- | --- | --- |\n| wide |  | z |\n| short |  |  |\n');
  });

  it('leaves out columns and rows that are empty throughout', () => {
    const html =
      '<table><tr><th>Name</th><th></th><th>Qty</th></tr><tr><td>Bolt</td><td> </td><td>4</td></tr>' +
      '<tr><td></td><td></td><td></td></tr></table>';
    expect(md(html)).toEqual('| Name | Qty |\n| --- | --- |\n| Bolt | 4 |\n');
  });

  it('unwraps single-cell and nested layout tables', () => {
    const html =
      '<table><tr><td><h2>Inside</h2><p>Layout text</p></td></tr></table>' +
      '<table><tr><td>Menu</td><td><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table></td></tr></table>';
    expect(md(html)).toEqual('## Inside\n\nLayout text\n\nMenu\n\n| k | v |\n| --- | --- |\n| 1 | 2 |\n');
  });

  it('keeps a caption as a paragraph above the table', () => {
    const html = '<table><caption>Results</caption><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>';
    expect(md(html)).toEqual('Results\n\n| A | B |\n| --- | --- |\n| 1 | 2 |\n');
  });
});

describe('text escaping', () => {
  it('escapes what would start a block at the beginning of a line', () => {
    const html =
      '<p># Not a heading</p><p>- not a list</p><p>+ plus</p><p>1. not ordered</p><p>2024) year</p>' +
      '<p>&gt; not a quote</p><p>===</p><p>*</p><p>#hashtag</p><p>-5 degrees</p>';
    expect(md(html)).toEqual(
      '\\# Not a heading\n\n\\- not a list\n\n\\+ plus\n\n1\\. not ordered\n\n2024\\) year\n\n' +
        '\\> not a quote\n\n\\===\n\n\\*\n\n#hashtag\n\n-5 degrees\n',
    );
  });

  it('escapes inline markup characters but leaves ordinary text alone', () => {
    const html =
      '<p>*stars* and _under_ [brackets] `ticks` a*b 2 * 3 snake_case_name AT&amp;T a &lt; b &lt;div&gt; &amp;amp; C:\\dir\\*</p>' +
      '<p>~5 km, ~~struck~~</p><p>about ~5 km</p>';
    expect(md(html)).toEqual(
      '\\*stars\\* and \\_under\\_ \\[brackets\\] \\`ticks\\` a\\*b 2 * 3 snake_case_name AT&T a < b \\<div> \\&amp; C:\\dir\\\\\\*\n\n' +
        '\\~5 km, \\~\\~struck\\~\\~\n\nabout ~5 km\n',
    );
  });

  it('decodes entities', () => {
    expect(md('<p>caf&eacute; &copy; 2024 &#8212; &#x201C;q&#x201D; &hellip;</p>')).toEqual('café © 2024 — “q” …\n');
  });

  it('does not escape block starts inside table cells or after a marker', () => {
    const html = '<table><tr><th># id</th><th>- x</th></tr><tr><td>1. a</td><td>b</td></tr></table><ul><li>1. first</li></ul>';
    expect(md(html)).toEqual('| # id | - x |\n| --- | --- |\n| 1. a | b |\n\n- 1\\. first\n');
  });
});

describe('noise and main content', () => {
  const article = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Storm closes harbour | Example News</title><link rel="stylesheet" href="/s.css">
<style>.x{color:red}</style><script>window.dataLayer=[];</script>
<script type="application/ld+json">{"@type":"NewsArticle"}</script></head>
<body class="cookie-banner-visible">
<a class="skip-link" href="#content">Skip to content</a>
<div id="onetrust-consent-sdk"><div class="ot-banner">We use cookies. <button>Accept</button></div></div>
<header class="site-header"><a href="/"><img src="/logo.svg" alt="Example News"></a>
<nav><ul><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul></nav>
<form role="search"><input name="q"><button>Search</button></form></header>
<div class="layout">
<article class="story">
<header><h1>Storm closes harbour</h1><p class="byline">By <a href="/staff/lee">A. Lee</a></p></header>
<figure><img src="/img/harbour.jpg" alt="The harbour"><figcaption>Waves over the wall.</figcaption></figure>
<p>The harbour closed on <time datetime="2024-03-01">Friday</time> after <a href="/tags/storm">the storm</a>.</p>
<div class="ad-slot" aria-hidden="true">Advertisement</div>
<div class="share"><button>Share</button><a href="javascript:share()">Copy link</a></div>
<h2>What happens next</h2>
<p>Officials said repairs would take a week.</p>
<aside class="related"><h3>Related</h3><a href="/other">Other story</a></aside>
<noscript><img src="/pixel.gif"></noscript>
<footer class="story-footer"><p>Filed under World</p></footer>
</article>
<aside class="most-read"><h2>Most read</h2><ol><li><a href="/a">A</a></li></ol></aside>
</div>
<div class="newsletter" style="display:none"><p>Subscribe</p></div>
<footer class="site-footer"><p>© Example News</p><a href="/privacy">Privacy</a></footer>
<iframe src="/widget"></iframe><svg><title>icon</title></svg><template><p>tpl</p></template>
<script src="/app.js"></script></body></html>`;

  it('emits only the single article of a news page, without any chrome', () => {
    expect(md(article)).toEqual(
      '# Storm closes harbour\n\nBy [A. Lee](https://news.example.test/staff/lee)\n\n' +
        '![The harbour](https://news.example.test/img/harbour.jpg)\n\nWaves over the wall.\n\n' +
        'The harbour closed on Friday after [the storm](https://news.example.test/tags/storm).\n\n' +
        'Copy link\n\n## What happens next\n\nOfficials said repairs would take a week.\n\nFiled under World\n',
    );
  });

  it('renders the whole body minus noise with mainContent: false', () => {
    expect(htmlToMarkdown(article, BASE, { mainContent: false })).toEqual(
      '[Skip to content](https://news.example.test/world/2024/story.html#content)\n\n' +
        md(article),
    );
  });

  it('prefers <main> (or a role=main container) and ignores role=main on a heading', () => {
    const html =
      '<body><div class="top">Top bar</div><main><h1>Product</h1><article><p>Review one</p></article>' +
      '<article><p>Review two</p></article></main><div>Bottom</div></body>';
    expect(md(html)).toEqual('# Product\n\nReview one\n\nReview two\n');
    const roleMain =
      '<body><div>Promo</div><h1 role="main">Name</h1><div id="dp" role="main"><p>Details</p></div></body>';
    expect(md(roleMain)).toEqual('Details\n');
  });

  it('renders the body when there are several articles or the main holds almost nothing', () => {
    expect(md('<body><article><p>one</p></article><article><p>two</p></article></body>')).toEqual('one\n\ntwo\n');
    const thin = `<body><main><p>Hi</p></main><div><p>${'Long body text. '.repeat(10).trim()}</p></div></body>`;
    expect(md(thin)).toEqual(`Hi\n\n${'Long body text. '.repeat(10).trim()}\n`);
  });

  it('drops hidden elements, chrome roles and form controls, keeps labels and forms', () => {
    const html =
      '<div hidden>h</div><div aria-hidden="true">ah</div><p style="color:red; display : none">dn</p>' +
      '<div role="navigation">rn</div><div role="banner">rb</div><div role="contentinfo">rc</div>' +
      '<dialog><p>modal</p></dialog><div hidden="until-found">found</div>' +
      '<form action="/buy"><label>Qty <input value="1"><select><option>1</option></select></label>' +
      '<textarea>t</textarea><button>Add to cart</button><p>In stock</p></form>' +
      '<div class="cookie-notice">cookies</div><div id="gdpr-box">gdpr</div>';
    expect(md(html)).toEqual('found\n\nQty\n\nIn stock\n');
  });

  it('parses again without the soft rules when they emptied the page', () => {
    const html = '<body><div id="app" aria-hidden="true"><h1>Saved with a modal open</h1><p>Body</p></div></body>';
    expect(md(html)).toEqual('# Saved with a modal open\n\nBody\n');
  });
});

describe('malformed and edge input', () => {
  it('converts a page with unclosed and misnested tags', () => {
    const html =
      '<div><p>one<p>two <b>bold <i>both</b> after</i><ul><li>a<li>b</ul>' +
      '<table><tr><td>x<td>y<tr><td>z</table><p>end <a href="/u">unclosed link';
    expect(md(html)).toEqual(
      'one\n\ntwo **bold *both*** after\n\n- a\n- b\n\n| x | y |\n| --- | --- |\n| z |  |\n\n' +
        'end [unclosed link](https://news.example.test/u)\n',
    );
  });

  it('keeps the content after a </form> that closes unbalanced divs, as browsers do', () => {
    const html =
      '<div id="page"><main><div class="buybox"><form><div><div>Price $5</form></div></div>' +
      '<p>Details after the buy box</p></div></main><div>Footer links</div></div>';
    expect(md(html)).toEqual('Price $5\n\nDetails after the buy box\n');
  });

  it('survives very deep nesting, flattening elements past 200 levels', () => {
    const html = '<div>'.repeat(5000) + 'deep <b>text</b>' + '</div>'.repeat(5000) + '<p><b>after</b></p>';
    expect(md(html)).toEqual('deep text\n\n**after**\n');
  });

  it('returns an empty string for pages with no content', () => {
    expect(md('')).toEqual('');
    expect(md('   \n ')).toEqual('');
    expect(md('<html><head><title>x</title><script>1</script></head><body> <p> </p> </body></html>')).toEqual('');
  });
});
