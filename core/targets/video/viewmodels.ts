/**
 * The view-model cards that replace the renderers since 2024: `lockupViewModel` (a video,
 * playlist, mix or album card: `contentId`, `contentType`, title and metadata rows, the
 * duration or video count as a thumbnail badge) and `shortsLockupViewModel` (a short: its id
 * in the reel endpoint, title and views in the overlay).
 */
import { clockSeconds, countOf } from './counts.js';
import type { Item } from './items.js';
import { arr, at, findAll, str, textOf, type Obj } from './json.js';
import { absolute } from './page.js';

/** Live view counts ("1,234 watching"), in the languages the count parser knows. */
export const WATCHING = /watching|viewers|zuschauer|spectateurs|espectadores|người đang xem|смотрят/i;

export function shortsLockup(r: Obj, base: string | null): Item | undefined {
  const id = str(at(r, 'onTap', 'innertubeCommand', 'reelWatchEndpoint', 'videoId')) ?? /shorts-shelf-item-([\w-]+)/.exec(String(r.entityId ?? ''))?.[1] ?? null;
  if (!id) return undefined;
  // Since 2025 the image is a thumbnail view model (`thumbnailViewModel.image.sources`).
  const sources = arr(at(r, 'thumbnail', 'sources') ?? findAll(at(r, 'thumbnailViewModel'), 'sources', 1)[0]);
  return {
    kind: 'short',
    item: {
      position: 0,
      id,
      title: textOf(at(r, 'overlayMetadata', 'primaryText')),
      url: absolute(`/shorts/${id}`, base),
      view_count: countOf(textOf(at(r, 'overlayMetadata', 'secondaryText'))),
      thumbnail: str(at(sources[sources.length - 1], 'url')),
    },
  };
}

const VIEWS = /view|aufruf|vue|visualiz|lượt xem|просмотр|回視聴|visning|weergave/i;

/** The newer lockup card: a video (`LOCKUP_CONTENT_TYPE_VIDEO`) or a playlist/mix/album. */
export function lockup(r: Obj, base: string | null): Item | undefined {
  const id = str(r.contentId);
  if (!id) return undefined;
  const meta = at(r, 'metadata', 'lockupMetadataViewModel');
  const title = textOf(at(meta, 'title'));
  const parts = arr(at(meta, 'metadata', 'contentMetadataViewModel', 'metadataRows')).flatMap((row) => arr(at(row, 'metadataParts')));
  let channel: string | null = null;
  let channelId: string | null = null;
  const texts: string[] = [];
  for (const p of parts) {
    const t = textOf(at(p, 'text'));
    const browse = findAll(at(p, 'text', 'commandRuns'), 'browseEndpoint', 1)[0];
    if (browse && !channel) {
      channel = t;
      channelId = str(at(browse, 'browseId'));
    } else if (t) texts.push(t);
  }
  const badge = findAll(at(r, 'contentImage'), 'thumbnailBadgeViewModel').map((b) => textOf(at(b, 'text'))).find((t) => t !== null) ?? null;
  const thumb = arr(findAll(at(r, 'contentImage'), 'sources', 1)[0]);
  const thumbnail = str(at(thumb[thumb.length - 1], 'url'));
  if (r.contentType === 'LOCKUP_CONTENT_TYPE_VIDEO') {
    const views = texts.find((t) => VIEWS.test(t) && /\d|no /i.test(t)) ?? null;
    const live = views !== null && WATCHING.test(views);
    return {
      kind: 'video',
      item: {
        position: 0,
        id,
        title,
        url: absolute(`/watch?v=${id}`, base),
        channel,
        channel_id: channelId,
        channel_url: channelId ? absolute(`/channel/${channelId}`, base) : null,
        duration: live ? null : clockSeconds(badge),
        view_count: live ? null : countOf(views),
        published_text: texts.find((t) => t !== views) ?? null,
        description: null,
        thumbnail,
        is_live: live,
        badges: [],
      },
    };
  }
  return {
    kind: 'playlist',
    item: { position: 0, id, title, url: absolute(`/playlist?list=${id}`, base), channel, channel_id: channelId, video_count: countOf(badge), thumbnail },
  };
}
