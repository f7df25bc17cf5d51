/**
 * Facts read by hand off the captured video pages (../shared/fixtures/video-*), for the pages
 * without an expected output and to go beyond the partial ones: ids, titles, counts as the page
 * shows them (`31.5M subscribers` → 31500000), how many results and which come first.
 */

export type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Check {
  name: string;
  expected: unknown;
  got: (j: J) => unknown;
  /** `eq` (default); `text` ignores whitespace; `instant` same time; `day` same date; `atLeast` a number not below. */
  mode?: 'eq' | 'text' | 'instant' | 'day' | 'atLeast';
}

export const c = (name: string, expected: unknown, got: (j: J) => unknown, mode: Check['mode'] = 'eq'): Check => ({ name, expected, got, mode });
const f = (path: string, expected: unknown): Check =>
  c(path, expected, (j) => path.split('.').reduce<unknown>((o, k) => (o === null || o === undefined ? undefined : (o as J)[k]), j));
const count = (key: string, n: number) => c(`${key} (count)`, n, (j) => (j[key] as unknown[] | undefined)?.length);
const some = (key: string) => c(`${key} present`, true, (j) => typeof j[key] === 'string' && j[key] !== '');

export const FACTS: Record<string, Check[]> = {
  'pytube_yt-watch_2lAe1cqCOXo': [
    f('id', '2lAe1cqCOXo'), f('title', 'YouTube Rewind 2019: For the Record | #YouTubeRewind'), f('channel', 'YouTube'), f('channel_id', 'UCBR8-60-B28hp2BmDPdntcQ'),
    f('view_count', 115965063), f('duration', 337), f('publish_date', '2019-12-05'), f('like_count', 3485266), f('categories.0', 'Entertainment'),
    f('channel_follower_count', 31500000), f('channel_is_verified', true), f('availability', 'public'), f('live_status', 'not_live'),
  ],
  // 20 result cards, 7 of them linking to /shorts/ (shorts); two shorts shelves of 10 that repeat 5 ids.
  'newpipe_yt-search-api_all_test': [f('result_count', 430198371), count('videos', 13), count('shorts', 22), f('videos.0.id', '6GDBMbMU0ew'), f('videos.0.duration', 136), f('shorts.0.id', '_YYmA7yrfNY')],
  'newpipe_yt-search-api_corrected_pewdeipie': [f('result_count', 7511757), count('videos', 20), f('videos.0.id', 'lJIvq7jmHxA'), f('videos.0.channel', 'PewDiePie')],
  // 20 result cards, 3 of them linking to /shorts/.
  'newpipe_yt-search-api_shorts': [f('query', '#shorts'), f('result_count', 661136616), count('videos', 17), count('shorts', 3), f('videos.0.id', '3NHftLP8hcg'), f('shorts.0.id', 'JrRC57hrgs8'), some('continuation')],
  'ytsr_yt-results_testing_page1': [count('videos', 20), f('videos.0.id', '7JKFE03ix6E'), f('videos.0.channel', 'NDR Ratgeber'), f('refinements.0', 'personality test quiz')],
  'ytsr_yt-search-api_testing_page2': [
    f('result_count', 22247818), count('videos', 18), f('videos.0.id', 'gAbxeKXDeIY'), f('videos.17.id', '-Ss6mjIvNCQ'), f('videos.0.duration', 2328), some('continuation'),
  ],
  'newpipe_yt-results-page_empty-query': [f('result_count', 0), count('videos', 0), f('continuation', null)],
  'newpipe_yt-autocomplete_hello_gl-DE': [f('query', 'hello'), count('suggestions', 14), f('suggestions.0', 'hello'), f('suggestions.1', 'hello kitty'), f('suggestions.13', 'hello there')],
  'metascraper_youtube-channel_UCzcRQ3vRNr6fJ1A9rqFn7QA': [
    f('channel_id', 'UCzcRQ3vRNr6fJ1A9rqFn7QA'), f('handle', '@OneMedia.'), f('channel_follower_count', 4690000), f('video_count', 6800), f('is_verified', true), f('tab', 'featured'),
  ],
  'pytube_yt-channel_MLB_shorts': [
    f('channel_id', 'UCoLrcjPV5PbUrUyXq5mjc_A'), f('title', 'MLB'), f('handle', '@MLB'), f('channel_follower_count', 4140000), f('video_count', 287000), f('tab', 'shorts'),
    count('videos', 48), c('every video a short', true, (j) => (j.videos as J[]).every((v) => v.type === 'short')), some('continuation'),
  ],
  'pytube_yt-channel_MLB_streams': [f('tab', 'streams'), count('videos', 29), f('videos.0.duration', 11186), f('videos.0.published_text', 'Streamed 10 days ago'), some('continuation')],
  'newpipe_yt-channel-api_kurzgesagt_videos-tab': [
    f('channel_id', 'UCsXVk37bltHxD1rDPwtNM8Q'), f('title', 'Kurzgesagt – In a Nutshell'), f('handle', '@kurzgesagt'), f('channel_follower_count', 25000000), f('video_count', 337),
    f('is_verified', true), f('tab', 'videos'), count('videos', 30), f('videos.0.id', 'D0WQK7cMJn8'), f('videos.0.title', 'We Made A New Channel!'), f('videos.0.duration', 183),
    f('videos.0.view_count', 1545374), some('continuation'),
  ],
  'newpipe_yt-channel-api_UCTwECeGqMZee77BjdoYtI2Q_videos-tab': [
    f('channel_id', 'UCTwECeGqMZee77BjdoYtI2Q'), f('title', 'Creative Commons'), f('handle', '@creativecommons'), f('channel_follower_count', 8840), f('video_count', 258),
    f('is_verified', false), count('videos', 30), f('videos.0.id', 'BD-LB23rRBE'), f('videos.0.duration', 4054), f('videos.0.view_count', 28), some('continuation'),
  ],
};
