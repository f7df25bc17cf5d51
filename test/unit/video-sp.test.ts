/** The search filter `sp`: the bytes the platform's own filter links carry. */
import { describe, expect, it } from 'vitest';
import { searchFilter } from '../../core/targets/video/sp.js';
import { decodeSp } from '../sites/video-lists.js';

describe('sp search filter', () => {
  it('equals the values of the site filter menu, one filter at a time', () => {
    // Values as the results page's filter menu links them (URL-decoded).
    const known: [Record<string, unknown>, string][] = [
      [{ upload_date: 'last_hour' }, 'EgIIAQ=='],
      [{ upload_date: 'today' }, 'EgIIAg=='],
      [{ upload_date: 'this_week' }, 'EgIIAw=='],
      [{ upload_date: 'this_month' }, 'EgIIBA=='],
      [{ upload_date: 'this_year' }, 'EgIIBQ=='],
      [{ type: 'videos' }, 'EgIQAQ=='],
      [{ type: 'channels' }, 'EgIQAg=='],
      [{ type: 'playlists' }, 'EgIQAw=='],
      [{ type: 'movies' }, 'EgIQBA=='],
      [{ duration: '<4' }, 'EgIYAQ=='],
      [{ duration: '>20' }, 'EgIYAg=='],
      [{ duration: '4-20' }, 'EgIYAw=='],
      [{ live: true }, 'EgJAAQ=='],
      [{ '4k': true }, 'EgJwAQ=='],
      [{ hd: true }, 'EgIgAQ=='],
      [{ subtitles: true }, 'EgIoAQ=='],
      [{ creative_commons: true }, 'EgIwAQ=='],
      [{ '360': true }, 'EgJ4AQ=='],
      [{ vr180: true }, 'EgPQAQE='],
      [{ '3d': true }, 'EgI4AQ=='],
      [{ hdr: true }, 'EgPIAQE='],
      [{ purchased: true }, 'EgJIAQ=='],
      [{ sort_by: 'upload_date' }, 'CAI='],
      [{ sort_by: 'view_count' }, 'CAM='],
      [{ sort_by: 'rating' }, 'CAE='],
    ];
    for (const [params, sp] of known) expect([params, searchFilter(params)]).toEqual([params, sp]);
  });

  it('combines sort and filters in field order, as the client writes them', () => {
    expect(searchFilter({ sort_by: 'view_count', type: 'videos' })).toBe('CAMSAhAB');
    expect(searchFilter({ type: 'videos', duration: '<4' })).toBe('EgQQARgB');
    // Field order, not parameter order: upload date (1), type (2), duration (3), then features by number.
    expect(searchFilter({ vr180: true, hd: true, duration: '>20', upload_date: 'today', type: 'videos' })).toBe('EgsIAhABGAIgAdABAQ==');
    expect(decodeSp('EgsIAhABGAIgAdABAQ==')).toEqual({ sort: 0, filters: new Map([[1, 2], [2, 1], [3, 2], [4, 1], [26, 1]]) });
  });

  it('is absent when nothing filters: relevance, false flags and unknown values add nothing', () => {
    expect(searchFilter({})).toBeUndefined();
    expect(searchFilter({ sort_by: 'relevance', hd: false, '4k': false, type: 'nope', query: 'x' })).toBeUndefined();
  });
});
