/**
 * A channel's header facts, from whichever header the channel shows: `pageHeaderRenderer`
 * (2024-, a view model of metadata rows), `c4TabbedHeaderRenderer` (before), and the headers
 * of channels that are not a person's: topic channels (`carouselHeaderRenderer` with a
 * `topicChannelDetailsRenderer`), game channels (`interactiveTabbedHeaderRenderer`), and the
 * age gate a channel shows instead of its content (`channelAgeGateRenderer` in the tab). The
 * page's `microformat.microformatDataRenderer` has title, description and avatar on every
 * kind, and stands in where the header has none.
 */
import { countOf } from './counts.js';
import { arr, at, bestThumbnail, findAll, findFirst, obj, str, textOf, type Obj } from './json.js';

export interface HeaderFacts {
  title: string | null;
  description: string | null;
  handle: string | null;
  channel_follower_count: number | null;
  video_count: number | null;
  is_verified: boolean | null;
  avatar: string | null;
  /** The channel id, where only the header tells it (topic channels). */
  channel_id: string | null;
}

const NONE: HeaderFacts = { title: null, description: null, handle: null, channel_follower_count: null, video_count: null, is_verified: null, avatar: null, channel_id: null };

const SUBSCRIBERS = /subscri|abonn|suscrip|inscri|iscritt|đăng ký|подпис/i;

function c4Facts(c4: Obj): HeaderFacts {
  return {
    title: str(at(c4, 'title')),
    description: null,
    handle: textOf(at(c4, 'channelHandleText')),
    channel_follower_count: countOf(textOf(at(c4, 'subscriberCountText'))),
    video_count: countOf(textOf(at(c4, 'videosCountText'))),
    is_verified: arr(at(c4, 'badges')).some((b) => /VERIFIED/.test(String(at(b, 'metadataBadgeRenderer', 'style')))),
    avatar: bestThumbnail(at(c4, 'avatar')),
    channel_id: str(at(c4, 'channelId')),
  };
}

function viewModelFacts(vm: Obj): HeaderFacts {
  const parts = arr(at(vm, 'metadata', 'contentMetadataViewModel', 'metadataRows')).flatMap((r) => arr(at(r, 'metadataParts')).map((p) => textOf(at(p, 'text'))));
  const texts = parts.filter((t): t is string => t !== null);
  const handle = texts.find((t) => t.startsWith('@')) ?? null;
  const numbers = texts.filter((t) => !t.startsWith('@') && /\d/.test(t));
  const subs = numbers.find((t) => SUBSCRIBERS.test(t)) ?? numbers[0] ?? null;
  const vids = numbers.find((t) => t !== subs) ?? null;
  const sources = arr(at(vm, 'image', 'decoratedAvatarViewModel', 'avatar', 'avatarViewModel', 'image', 'sources'));
  const verified = findAll(at(vm, 'title'), 'imageName').some((n) => /CHECK_CIRCLE/.test(String(n)));
  return {
    title: textOf(at(vm, 'title', 'dynamicTextViewModel', 'text')),
    description: textOf(at(vm, 'description', 'descriptionPreviewViewModel', 'description')),
    handle,
    channel_follower_count: countOf(subs),
    video_count: countOf(vids),
    is_verified: verified,
    avatar: str(at(sources[sources.length - 1], 'url')),
    channel_id: null,
  };
}

/**
 * The headers of topic and game channels and the age gate: a title, an avatar, maybe a count.
 * A topic channel (Music, Sports) has no metadata renderer: its id is only in the header's
 * subscribe button, its subscriber count in the details' subtitle ("74.4m subscribers"). A
 * game channel shows the game's title and box art, not the channel's handle or counts.
 */
function otherFacts(data: Obj | undefined, tabContent: unknown): HeaderFacts | undefined {
  const topic = obj(findFirst(at(data, 'header', 'carouselHeaderRenderer'), 'topicChannelDetailsRenderer'));
  if (topic) {
    return {
      ...NONE,
      title: textOf(at(topic, 'title')),
      channel_follower_count: countOf(textOf(at(topic, 'subtitle'))),
      avatar: bestThumbnail(at(topic, 'avatar')),
      channel_id: str(findFirst(at(topic, 'subscribeButton'), 'channelId')),
    };
  }
  const game = obj(at(data, 'header', 'interactiveTabbedHeaderRenderer'));
  if (game) return { ...NONE, title: textOf(at(game, 'title')), description: textOf(at(game, 'description')), avatar: bestThumbnail(at(game, 'boxArt')) };
  const gate = obj(findFirst(tabContent, 'channelAgeGateRenderer'));
  if (gate) return { ...NONE, title: str(at(gate, 'channelTitle')), avatar: bestThumbnail(at(gate, 'avatar')) };
  return undefined;
}

export function headerFacts(data: Obj | undefined, tabContent?: unknown): HeaderFacts {
  const c4 = obj(at(data, 'header', 'c4TabbedHeaderRenderer'));
  const vm = obj(at(data, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const facts = c4 ? c4Facts(c4) : vm ? viewModelFacts(vm) : (otherFacts(data, tabContent) ?? NONE);
  const micro = obj(at(data, 'microformat', 'microformatDataRenderer'));
  // Playlists (a channel's uploads) have one too: only a channel's own stands in.
  const id = /\/channel\/(UC[\w-]{22})/.exec(str(at(micro, 'urlCanonical')) ?? '')?.[1] ?? null;
  if (!micro || !id) return facts;
  return {
    ...facts,
    title: facts.title ?? str(at(micro, 'title')),
    description: facts.description ?? str(at(micro, 'description')),
    avatar: facts.avatar ?? bestThumbnail(at(micro, 'thumbnail')),
    channel_id: facts.channel_id ?? id,
  };
}
