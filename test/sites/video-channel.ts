/**
 * The simulated channel: the 2024 page layout (`pageHeaderRenderer` header, tabs whose videos
 * tab is a `richGridRenderer` of `lockupViewModel` cards, 30 a page), browse continuations, and
 * the About panel the header's description opens (a browse continuation answering
 * `aboutChannelViewModel`). 75 videos, 6 shorts, 4 past streams.
 */
import { CHANNEL_ID, CHANNEL_NAME, HANDLE, clock, grouped, pageHtml, scriptJson } from './video-data.js';
import { CHANNEL_PAGE, CHANNEL_VIDEOS, token } from './video-lists.js';

export const channelVideoId = (n: number) => `ch${String(n).padStart(9, '0')}`;
export const SHORTS = 6;
export const STREAMS = 4;

const continuation = (t: string) => ({ continuationItemRenderer: { trigger: 'CONTINUATION_TRIGGER_ON_ITEM_SHOWN', continuationEndpoint: { continuationCommand: { token: t, request: 'CONTINUATION_REQUEST_TYPE_BROWSE' } } } });

function lockup(n: number): Record<string, unknown> {
  const id = channelVideoId(n);
  return {
    richItemRenderer: {
      content: {
        lockupViewModel: {
          contentId: id,
          contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
          contentImage: { thumbnailViewModel: { image: { sources: [{ url: `https://img.example/vi/${id}/hqdefault.jpg`, width: 480, height: 270 }] }, overlays: [{ thumbnailBottomOverlayViewModel: { badges: [{ thumbnailBadgeViewModel: { text: clock(60 + n * 7) } }] } }] } },
          metadata: { lockupMetadataViewModel: { title: { content: `Channel video ${n}` }, metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [{ text: { content: `${grouped(n * 101)} views` } }, { text: { content: `${n} days ago` } }] }] } } } },
        },
      },
    },
  };
}

function short(n: number): Record<string, unknown> {
  const id = `cs${String(n).padStart(9, '0')}`;
  return { richItemRenderer: { content: { shortsLockupViewModel: { entityId: `shorts-shelf-item-${id}`, onTap: { innertubeCommand: { reelWatchEndpoint: { videoId: id } } }, overlayMetadata: { primaryText: { content: `Channel short ${n}` }, secondaryText: { content: `${n}K views` } } } } } };
}

function stream(n: number): Record<string, unknown> {
  const id = `st${String(n).padStart(9, '0')}`;
  return { richItemRenderer: { content: { videoRenderer: { videoId: id, title: { runs: [{ text: `Past stream ${n}` }] }, publishedTimeText: { simpleText: `Streamed ${n} weeks ago` }, lengthText: { simpleText: clock(3600 + n) }, viewCountText: { simpleText: `${grouped(n * 1000)} views` } } } } };
}

/** The videos tab's cards from `offset`, with a token when more follow. */
function videoSlice(offset: number): unknown[] {
  const cards: unknown[] = [];
  for (let n = offset + 1; n <= Math.min(offset + CHANNEL_PAGE, CHANNEL_VIDEOS); n++) cards.push(lockup(n));
  if (offset + CHANNEL_PAGE < CHANNEL_VIDEOS) cards.push(continuation(token('chan', CHANNEL_ID, 'videos', offset + CHANNEL_PAGE)));
  return cards;
}

const TABS = ['featured', 'videos', 'shorts', 'streams'] as const;

function header(): Record<string, unknown> {
  const aboutPanel = { engagementPanel: { engagementPanelSectionListRenderer: { content: { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [continuation(token('about', CHANNEL_ID))] } }] } } } } };
  return {
    pageHeaderRenderer: {
      pageTitle: CHANNEL_NAME,
      content: {
        pageHeaderViewModel: {
          title: { dynamicTextViewModel: { text: { content: CHANNEL_NAME, attachmentRuns: [{ element: { type: { imageType: { image: { sources: [{ clientResource: { imageName: 'CHECK_CIRCLE_FILLED' } }] } } } } }] } } },
          image: { decoratedAvatarViewModel: { avatar: { avatarViewModel: { image: { sources: [{ url: 'https://img.example/avatar/s160.jpg', width: 160, height: 160 }] } } } } },
          metadata: { contentMetadataViewModel: { metadataRows: [{ metadataParts: [{ text: { content: HANDLE } }] }, { metadataParts: [{ text: { content: '12.5K subscribers' } }, { text: { content: `${CHANNEL_VIDEOS} videos` } }] }] } },
          description: { descriptionPreviewViewModel: { description: { content: 'Trail films every week.' }, rendererContext: { commandContext: { onTap: { innertubeCommand: { showEngagementPanelEndpoint: aboutPanel } } } } } },
        },
      },
    },
  };
}

/** The channel page with `tab` selected; undefined for another channel. */
export function channelPage(who: string, tab: string, site: string): string | undefined {
  if (who !== CHANNEL_ID && who !== HANDLE) return undefined;
  const selected = (TABS as readonly string[]).includes(tab) ? tab : 'featured';
  const content =
    selected === 'videos' ? { richGridRenderer: { contents: videoSlice(0) } }
    : selected === 'shorts' ? { richGridRenderer: { contents: Array.from({ length: SHORTS }, (_, i) => short(i + 1)) } }
    : selected === 'streams' ? { richGridRenderer: { contents: Array.from({ length: STREAMS }, (_, i) => stream(i + 1)) } }
    : { sectionListRenderer: { contents: [{ itemSectionRenderer: { contents: [{ channelVideoPlayerRenderer: { videoId: 'vid00000001', title: { runs: [{ text: 'Trail Running Basics' }] }, viewCountText: { simpleText: '123,456 views' }, publishedTimeText: { simpleText: '1 year ago' } } }] } }] } };
  const data = {
    responseContext: {},
    header: header(),
    metadata: { channelMetadataRenderer: { title: CHANNEL_NAME, description: 'Trail films every week.\nNew videos on Fridays.', externalId: CHANNEL_ID, keywords: 'trail running "trail films"', vanityChannelUrl: `${site}/${HANDLE}`, channelUrl: `${site}/channel/${CHANNEL_ID}`, isFamilySafe: true, avatar: { thumbnails: [{ url: 'https://img.example/avatar/s900.jpg', width: 900, height: 900 }] } } },
    contents: { twoColumnBrowseResultsRenderer: { tabs: TABS.map((t) => ({ tabRenderer: { title: t, selected: t === selected, endpoint: { commandMetadata: { webCommandMetadata: { url: `/${HANDLE}/${t}` } } }, ...(t === selected ? { content } : {}) } })) } },
  };
  return pageHtml(CHANNEL_NAME, `${site}/channel/${CHANNEL_ID}`, `<script>var ytInitialData = ${scriptJson(data)};</script>`);
}

export function channelContinuation(offset: number): string {
  return JSON.stringify({ responseContext: {}, onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: videoSlice(offset), targetId: 'browse-feedUCvideos' } }] });
}

export function aboutAnswer(site: string): string {
  const about = {
    description: 'Trail films every week.\nNew videos on Fridays.',
    subscriberCountText: '12.5K subscribers',
    viewCountText: '1,234,567 views',
    videoCountText: `${CHANNEL_VIDEOS} videos`,
    joinedDateText: { content: 'Joined Jul 9, 2013' },
    country: 'Switzerland',
    canonicalChannelUrl: `${site}/${HANDLE}`,
    channelId: CHANNEL_ID,
    links: [
      { channelExternalLinkViewModel: { title: { content: 'Shop' }, link: { content: 'shop.gleaner.example', commandRuns: [{ onTap: { innertubeCommand: { urlEndpoint: { url: `${site}/redirect?event=channel_description&q=https%3A%2F%2Fshop.gleaner.example%2F` } } } }] } } },
      { channelExternalLinkViewModel: { title: { content: 'Blog' }, link: { content: 'blog.gleaner.example/trails' } } },
    ],
  };
  return JSON.stringify({ responseContext: {}, onResponseReceivedEndpoints: [{ appendContinuationItemsAction: { continuationItems: [{ aboutChannelRenderer: { metadata: { aboutChannelViewModel: about } } }] } }] });
}
