/**
 * The video readers' parse-cost shortcuts (issue 26 item 2, video-channel) answer what the slow
 * way answered: `bestThumbnail` is the widest of `thumbnailsOf` (else the last), `linkUrl` reads
 * a redirect's target and leaves other links, and the About text gate finds either key
 * wherever the JSON text names it.
 */
import { describe, expect, it } from 'vitest';
import { aboutOf, linkUrl } from '../../core/targets/video/about.js';
import { bestThumbnail, thumbnailsOf } from '../../core/targets/video/json.js';

/** The choice as it was made from the built list. */
function slowBest(v: unknown): string | null {
  const list = thumbnailsOf(v);
  if (list.length === 0) return null;
  let best = list[list.length - 1] as (typeof list)[number];
  for (const t of list) if ((t.width ?? 0) > (best.width ?? 0)) best = t;
  return best.url;
}

describe('bestThumbnail', () => {
  const shapes: unknown[] = [
    undefined,
    null,
    {},
    { thumbnails: [] },
    { thumbnails: 'x' },
    { thumbnails: [{ url: '//i.example/a.jpg', width: 120 }, { url: 'https://i.example/b.jpg', width: 336 }] },
    { thumbnails: [{ url: 'https://i.example/wide.jpg', width: 640 }, { url: 'https://i.example/last.jpg', width: 320 }] },
    { thumbnails: [{ url: 'https://i.example/a.jpg', width: 400 }, { url: 'https://i.example/b.jpg', width: 400 }, { url: 'https://i.example/c.jpg', width: 100 }] },
    { thumbnails: [{ url: 'https://i.example/a.jpg' }, { url: 'https://i.example/b.jpg' }] },
    { thumbnails: [{ url: 'https://i.example/a.jpg', width: '720' }, { url: '', width: 9999 }, { width: 5000 }, { url: 'https://i.example/b.jpg', width: 360 }] },
    { thumbnails: [{ url: '//i.example/only.jpg', width: 9999 }, { url: 7, width: 1 }, null, 'x'] },
    { thumbnails: [{ url: 'https://i.example/a.jpg', width: -5 }, { url: 'https://i.example/b.jpg', width: Number.NaN }] },
  ];

  it('is the widest thumbnail with a URL, the first of equals, else the last listed, protocol-relative made https', () => {
    for (const v of shapes) expect(bestThumbnail(v)).toBe(slowBest(v));
    expect(bestThumbnail(shapes[5])).toBe('https://i.example/b.jpg');
    expect(bestThumbnail(shapes[7])).toBe('https://i.example/a.jpg');
    expect(bestThumbnail(shapes[9])).toBe('https://i.example/a.jpg');
    expect(bestThumbnail(shapes[10])).toBe('https://i.example/only.jpg');
  });
});

describe('linkUrl', () => {
  it('unwraps a redirect, keeps absolute links, makes bare hosts https', () => {
    expect(linkUrl('https://www.youtube.com/redirect?event=channel&q=https%3A%2F%2Fshop.example%2Fx&v=1')).toBe('https://shop.example/x');
    expect(linkUrl('/redirect?q=https%3A%2F%2Fa.example')).toBe('https://a.example');
    expect(linkUrl('https://www.youtube.com/redirect?event=channel')).toBe('https://www.youtube.com/redirect?event=channel');
    expect(linkUrl('https://a.example/page?q=ignored')).toBe('https://a.example/page?q=ignored');
    expect(linkUrl('shop.example/x?q=1')).toBe('https://shop.example/x?q=1');
    expect(linkUrl('not a link')).toBeNull();
    expect(linkUrl(null)).toBeNull();
  });
});

describe('the About text gate', () => {
  const panel = { aboutChannelViewModel: { description: 'About us', country: 'Spain', joinedDateText: { content: 'Joined Jul 9, 2013' } } };
  const full = { channelAboutFullMetadataRenderer: { description: { simpleText: 'Old about' }, country: { simpleText: 'Peru' } } };
  const page = (inner: unknown) => ({ contents: { twoColumnBrowseResultsRenderer: { tabs: [{ tabRenderer: { selected: true, content: inner } }] } } });

  it('reads either key where the text names it, as the whole-tree search does', () => {
    for (const data of [page(panel), page(full)]) {
      const text = JSON.stringify(data);
      expect(aboutOf(data, [], text)).toEqual(aboutOf(data, []));
    }
    expect(aboutOf(page(panel), [], JSON.stringify(page(panel))).country).toBe('Spain');
    expect(aboutOf(page(full), [], JSON.stringify(page(full))).country).toBe('Peru');
  });

  it('skips the tree when the text names neither key', () => {
    const data = page({ richGridRenderer: { contents: [] } });
    expect(aboutOf(data, [], JSON.stringify(data))).toEqual(aboutOf(data, []));
    expect(aboutOf(data, [], JSON.stringify(data)).country).toBeNull();
  });
});
