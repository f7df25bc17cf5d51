/** The crawl's pure parts: URL normalisation and page keys, scope and patterns, links, sitemaps, robots.txt. */
import { gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { extractLinks } from '../../core/crawl/links.js';
import { checkPatterns, pathFilter } from '../../core/crawl/patterns.js';
import { robotsRules } from '../../core/crawl/robots.js';
import { linkJudge } from '../../core/crawl/scope.js';
import { parseSitemap, sitemapText } from '../../core/crawl/sitemap.js';
import { normaliseUrl, pageKey, repeatsSegments, urlHash } from '../../core/crawl/url.js';

describe('URL normalisation', () => {
  test('scheme and host case, default ports, fragments, credentials, escapes, dot segments', () => {
    expect(normaliseUrl('HTTP://User:pw@Example.COM:80/a/./b/../c%7e%2f?#frag')).toBe('http://example.com/a/c~%2F');
    expect(normaliseUrl('https://example.com:443/')).toBe('https://example.com/');
    expect(normaliseUrl('https://example.com:8443/x')).toBe('https://example.com:8443/x');
    expect(normaliseUrl('https://example.com./x')).toBe('https://example.com/x');
    expect(normaliseUrl('https://bücher.example/')).toBe('https://xn--bcher-kva.example/');
  });

  test('sorted query, session and tracking parameters dropped, or the whole query', () => {
    expect(normaliseUrl('http://e.com/p?b=2&a=1&a=0&utm_source=x&SID=9&gclid=1')).toBe('http://e.com/p?a=1&a=0&b=2');
    expect(normaliseUrl('http://e.com/p;jsessionid=ABC?x=1')).toBe('http://e.com/p?x=1');
    expect(normaliseUrl('http://e.com/p?sid=1')).toBe('http://e.com/p');
    expect(normaliseUrl('http://e.com/p?b=2&a=1', undefined, { ignoreQuery: true })).toBe('http://e.com/p');
  });

  test('relative links resolve; other schemes and over-long URLs are not crawlable', () => {
    expect(normaliseUrl('../x?y=1#z', 'http://e.com/a/b/c')).toBe('http://e.com/a/x?y=1');
    expect(normaliseUrl('mailto:a@e.com')).toBeUndefined();
    expect(normaliseUrl('javascript:void(0)', 'http://e.com/')).toBeUndefined();
    expect(normaliseUrl(`http://e.com/${'a'.repeat(3000)}`)).toBeUndefined();
  });

  test('one page key for /a and /a/ (not for the root), 22-character hashes', () => {
    expect(pageKey('http://e.com/a/')).toBe('http://e.com/a');
    expect(pageKey('http://e.com/a/?q=1')).toBe('http://e.com/a?q=1');
    expect(pageKey('http://e.com/')).toBe('http://e.com/');
    expect(urlHash('http://e.com/a/')).toBe(urlHash('http://e.com/a'));
    expect(urlHash('http://e.com/a')).toHaveLength(22);
    expect(urlHash('http://e.com/a')).not.toBe(urlHash('http://e.com/b'));
    expect(repeatsSegments('http://e.com/x/y/x/y/x/y/x/y')).toBe(true);
    expect(repeatsSegments('http://e.com/2024/01/01/post')).toBe(false);
  });
});

describe('scope and patterns', () => {
  const rules = { start: 'http://www.site.test/', allowSubdomains: false, allowExternal: false, ignoreQuery: false, include: [], exclude: ['^/private/'] };

  test('same site (www ignored), subdomains and external by rule', () => {
    const same = linkJudge(rules);
    expect(same.judge('http://site.test/a', 'http://www.site.test/')).toEqual({ ok: true, url: 'http://site.test/a' });
    expect(same.judge('//blog.site.test/', 'http://www.site.test/')).toEqual({ ok: false, why: 'scope', url: 'http://blog.site.test/' });
    expect(same.judge('/private/x', 'http://www.site.test/')).toEqual({ ok: false, why: 'pattern', url: 'http://www.site.test/private/x' });
    expect(same.judge('mailto:x@y', 'http://www.site.test/')).toEqual({ ok: false, why: 'invalid' });
    expect(linkJudge({ ...rules, allowSubdomains: true }).judge('//blog.site.test/', 'http://site.test/').ok).toBe(true);
    expect(linkJudge({ ...rules, allowSubdomains: true }).judge('//notsite.test/', 'http://site.test/').ok).toBe(false);
    expect(linkJudge({ ...rules, allowExternal: true }).judge('http://other.test/', 'http://site.test/').ok).toBe(true);
  });

  test('RE2 patterns: lookaround and backreferences refused with the reason; nested quantifiers run in linear time', () => {
    expect(checkPatterns('#/include_paths', ['^/ok/', '(?=a)b', '(a)\\1', 'x{2000}'])).toEqual([
      { pointer: '#/include_paths/1', detail: expect.stringContaining('invalid or unsupported Perl syntax') },
      { pointer: '#/include_paths/2', detail: expect.stringContaining('invalid escape sequence') },
      { pointer: '#/include_paths/3', detail: expect.stringContaining('invalid repeat count') },
    ]);
    const filter = pathFilter(['^(a+)+$'], []);
    // Exponential for a backtracking engine; a plain answer here.
    expect(filter.allows(`${'a'.repeat(2000)}!`)).toBe(false);
    expect(filter.allows('aaaa')).toBe(true);
    expect(pathFilter(['^/blog/'], ['draft']).allows('/blog/draft-1')).toBe(false);
  });
});

describe('links, sitemaps, robots.txt', () => {
  test('links in document order with <base>, canonical, nofollow', () => {
    const html = `<html><head><base href="/docs/"><link rel="Canonical" href="/docs/page"><meta name="robots" content="index, nofollow"></head>
      <body><a href="a">A</a><a href="#top">top</a><a href="a">again</a><area href="/map"><a rel="nofollow sponsored" href="/ad">ad</a><a href=" b?x=1 ">B</a></body></html>`;
    expect(extractLinks(html, 'http://e.com/x/y', true)).toEqual({ hrefs: ['a', '/map', 'b?x=1'], base: 'http://e.com/docs/', canonical: 'http://e.com/docs/page', nofollow: true, nofollowLinks: 1 });
    expect(extractLinks(html, 'http://e.com/x/y', false).hrefs).toEqual(['a', '/map', '/ad', 'b?x=1']);
  });

  test('XML urlset with namespaces and entities, index, gzip, text', () => {
    const urlset = `<?xml version="1.0"?><ns:urlset xmlns:ns="http://www.sitemaps.org/schemas/sitemap/0.9"><ns:url><ns:loc> http://e.com/a?x=1&amp;y=2 </ns:loc><ns:lastmod>2024-01-02</ns:lastmod></ns:url><ns:url><ns:loc>ftp://e.com/no</ns:loc></ns:url></ns:urlset>`;
    expect(parseSitemap(urlset)).toEqual({ kind: 'urlset', urls: [{ url: 'http://e.com/a?x=1&y=2', lastmod: '2024-01-02' }], sitemaps: [] });
    const index = '<sitemapindex><sitemap><loc>http://e.com/s1.xml.gz</loc></sitemap></sitemapindex>';
    expect(parseSitemap(sitemapText(gzipSync(index)))).toEqual({ kind: 'index', urls: [], sitemaps: [{ url: 'http://e.com/s1.xml.gz' }] });
    expect(parseSitemap('\uFEFFhttp://e.com/1\r\n# comment\nhttp://e.com/2\n')).toEqual({ kind: 'text', urls: [{ url: 'http://e.com/1' }, { url: 'http://e.com/2' }], sitemaps: [] });
    expect(parseSitemap('<html><body>not a sitemap</body></html>').kind).toBe('unknown');
  });

  test('robots.txt: rules of our group or *, the deciding line, Crawl-delay; 4xx allows, 5xx and silence disallow', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: gleaner\nAllow: /public\nDisallow: /*.pdf$\nCrawl-delay: 1.5\nSitemap: http://e.com/s.xml\n';
    const rules = robotsRules({ url: 'http://e.com/robots.txt', status: 200, text });
    expect(rules.check('http://e.com/public/a')).toBeUndefined();
    // Our group replaces *: what it does not disallow is allowed.
    expect(rules.check('http://e.com/other')).toBeUndefined();
    expect(rules.check('http://e.com/docs/a.pdf')).toEqual({ robots_url: 'http://e.com/robots.txt', line: 6, rule: 'Disallow: /*.pdf$', reason: 'disallowed by robots.txt' });
    expect([rules.crawlDelayMs, rules.sitemaps]).toEqual([1500, ['http://e.com/s.xml']]);
    expect(robotsRules({ url: 'http://e.com/robots.txt', status: 404 }).check('http://e.com/x')).toBeUndefined();
    expect(robotsRules({ url: 'http://e.com/robots.txt', status: 503 }).check('http://e.com/x')?.reason).toContain('HTTP 503');
    expect(robotsRules({ url: 'http://e.com/robots.txt', status: 0 }).check('http://e.com/x')?.reason).toContain('could not be fetched');
  });
});
