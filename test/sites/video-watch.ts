/**
 * Watch pages, caption tracks (`fmt=json3`) and the transcript panel answer of the video
 * simulator, built from the catalogue in video-data.ts.
 */
import { transcriptParams } from '../../core/targets/video/captions.js';
import type { MediaFile } from './video-media.js';
import { CHANNEL_ID, CHANNEL_NAME, HANDLE, VIDEOS, clock, grouped, ownerRenderer, pageHtml, scriptJson, thumbs, type CaptionLine, type SimVideo } from './video-data.js';

function captionBlock(v: SimVideo, site: string): Record<string, unknown> | undefined {
  if (v.tracks.length === 0) return undefined;
  return {
    playerCaptionsTracklistRenderer: {
      captionTracks: v.tracks.map((t) => ({
        baseUrl: `${site}/api/timedtext?v=${v.id}&caps=asr&xoaf=5&lang=${t.lang}${t.kind ? '&kind=asr' : ''}${t.refuse ? '&exp=xpe' : ''}&signature=sim${v.id}`,
        name: { simpleText: t.name },
        vssId: `${t.kind ? 'a' : ''}.${t.lang}`,
        languageCode: t.lang,
        ...(t.kind ? { kind: 'asr' } : {}),
        isTranslatable: true,
        trackName: '',
      })),
      audioTracks: [{ captionTrackIndices: v.tracks.map((_, i) => i) }],
    },
  };
}

/** The streaming formats: the real media file's three streams, or ciphered copies only. */
function streaming(v: SimVideo, site: string, media: MediaFile[]): Record<string, unknown> | undefined {
  if (v.formats === 'none' || media.length === 0) return undefined;
  const entry = (m: MediaFile) => {
    const common = {
      itag: m.itag,
      mimeType: m.mime,
      bitrate: m.bitrate,
      ...(m.height ? { width: m.width, height: m.height, fps: 25, qualityLabel: `${m.height}p`, quality: 'medium' } : {}),
      ...(m.audio ? { audioQuality: 'AUDIO_QUALITY_LOW', audioSampleRate: '44100', audioChannels: 1 } : {}),
      contentLength: String(m.size),
      approxDurationMs: String(m.durationMs),
    };
    const url = `${site}/videoplayback?id=${v.id}&itag=${m.itag}&source=sim`;
    return v.formats === 'ciphered' ? { ...common, signatureCipher: `s=SIMSIG${m.itag}&sp=sig&url=${encodeURIComponent(url)}` } : { ...common, url };
  };
  // A 720p format that needs a signature even on normal pages: the choice must skip it.
  const locked = { itag: 136, mimeType: 'video/mp4; codecs="avc1.4d401f"', bitrate: 1500000, width: 1280, height: 720, fps: 25, qualityLabel: '720p', signatureCipher: `s=SIMSIG136&sp=sig&url=${encodeURIComponent(`${site}/videoplayback?id=${v.id}&itag=136`)}` };
  return {
    expiresInSeconds: '21540',
    formats: media.filter((m) => !m.adaptive).map(entry),
    adaptiveFormats: [...(v.formats === 'media' ? [locked] : []), ...media.filter((m) => m.adaptive).map(entry)],
  };
}

function playability(v: SimVideo): Record<string, unknown> {
  switch (v.state) {
    case 'age':
      return { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm your age', desktopLegacyAgeGateReason: 1, errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: 'Sign in to confirm your age' }, subreason: { runs: [{ text: 'This video may be inappropriate for some users.' }] } } } };
    case 'private':
      return { status: 'LOGIN_REQUIRED', reason: 'This video is private', messages: ['This is a private video. Please sign in to verify that you may see it.'] };
    case 'removed':
      return { status: 'ERROR', reason: 'This video has been removed by the uploader' };
    case 'bot':
      return { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot', errorScreen: { playerErrorMessageRenderer: { reason: { simpleText: 'Sign in to confirm you’re not a bot' } } } };
    default:
      return { status: 'OK', playableInEmbed: true };
  }
}

function player(v: SimVideo, site: string, media: MediaFile[]): Record<string, unknown> {
  const ps = playability(v);
  if (v.state === 'private' || v.state === 'removed' || v.state === 'bot') return { responseContext: {}, playabilityStatus: ps };
  const live = v.state === 'live';
  return {
    responseContext: {},
    playabilityStatus: ps,
    ...(v.state === 'ok' || live ? { streamingData: streaming(v, site, media) } : {}),
    captions: captionBlock(v, site),
    videoDetails: {
      videoId: v.id, title: v.title, lengthSeconds: String(v.length), keywords: v.keywords, channelId: CHANNEL_ID, isOwnerViewing: false,
      shortDescription: v.description, isCrawlable: true, thumbnail: thumbs(v.id), allowRatings: true, viewCount: String(v.views),
      author: CHANNEL_NAME, isPrivate: false, isUnpluggedCorpus: false, isLiveContent: live, ...(live ? { isLive: true } : {}),
    },
    microformat: {
      playerMicroformatRenderer: {
        thumbnail: { thumbnails: [{ url: `https://img.example/vi/${v.id}/maxresdefault.jpg`, width: 1280, height: 720 }] },
        title: { simpleText: v.title }, description: { simpleText: v.description }, lengthSeconds: String(v.length),
        ownerProfileUrl: `${site}/${HANDLE}`, externalChannelId: CHANNEL_ID, isFamilySafe: v.state !== 'age', isUnlisted: false,
        hasYpcMetadata: false, viewCount: String(v.views), category: v.category, publishDate: v.date, ownerChannelName: CHANNEL_NAME, uploadDate: v.date,
        ...(live ? { liveBroadcastDetails: { isLiveNow: true, startTimestamp: '2025-01-10T14:00:00+00:00' } } : {}),
      },
    },
  };
}

function initialData(v: SimVideo): Record<string, unknown> {
  const live = v.state === 'live';
  const like = {
    segmentedLikeDislikeButtonViewModel: {
      likeButtonViewModel: { likeButtonViewModel: { toggleButtonViewModel: { toggleButtonViewModel: { defaultButtonViewModel: { buttonViewModel: { iconName: 'LIKE', title: `${(v.likes / 1000).toFixed(1)}K`, accessibilityText: `like this video along with ${grouped(v.likes)} other people` } } } } } },
    },
  };
  const viewCount = live ? { runs: [{ text: '1,234' }, { text: ' watching now' }] } : { simpleText: `${grouped(v.views)} views` };
  const panels: unknown[] = [];
  if (v.chapters.length > 0) {
    const items = v.chapters.map(([at, title]) => ({ macroMarkersListItemRenderer: { title: { simpleText: title }, timeDescription: { simpleText: clock(at) }, onTap: { watchEndpoint: { videoId: v.id, startTimeSeconds: at } } } }));
    panels.push({ engagementPanelSectionListRenderer: { panelIdentifier: 'engagement-panel-macro-markers-description-chapters', targetId: 'engagement-panel-macro-markers-description-chapters', content: { macroMarkersListRenderer: { contents: items } } } });
  }
  if (v.tracks.length > 0) {
    const params = transcriptParams(v.id, { kind: v.tracks[0]!.kind, language_code: v.tracks[0]!.lang });
    panels.push({ engagementPanelSectionListRenderer: { panelIdentifier: 'engagement-panel-searchable-transcript', targetId: 'engagement-panel-searchable-transcript', content: { continuationItemRenderer: { continuationEndpoint: { commandMetadata: { webCommandMetadata: { sendPost: true, apiUrl: '/youtubei/v1/get_transcript' } }, getTranscriptEndpoint: { params } } } } } });
  }
  return {
    responseContext: {},
    contents: { twoColumnWatchNextResults: { results: { results: { contents: [
      { videoPrimaryInfoRenderer: { title: { runs: [{ text: v.title }] }, viewCount: { videoViewCountRenderer: { viewCount, isLive: live } }, videoActions: { menuRenderer: { topLevelButtons: [like] } }, dateText: { simpleText: live ? 'Started streaming on Jan 10, 2025' : 'Mar 5, 2024' } } },
      { videoSecondaryInfoRenderer: { owner: ownerRenderer(), attributedDescription: { content: v.description } } },
      { itemSectionRenderer: { contents: [{ commentsEntryPointHeaderRenderer: { headerText: { runs: [{ text: 'Comments' }] }, commentCount: { simpleText: String(v.comments) } } }], sectionIdentifier: 'comments-entry-point' } },
    ] } } } },
    currentVideoEndpoint: { watchEndpoint: { videoId: v.id } },
    engagementPanels: panels,
  };
}

/** The watch page of `id`; an unknown id is the platform's "Video unavailable" page. */
export function watchPage(id: string, site: string, media: MediaFile[]): string {
  const v = VIDEOS[id];
  if (!v) {
    const gone = { responseContext: {}, playabilityStatus: { status: 'ERROR', reason: 'Video unavailable' } };
    return pageHtml('Video unavailable', null, `<script>var ytInitialPlayerResponse = ${scriptJson(gone)};</script><script>var ytInitialData = ${scriptJson({ responseContext: {}, contents: {} })};</script>`);
  }
  // Private, removed and bot-check pages show the error screen only: no watch column.
  const gone = v.state === 'private' || v.state === 'removed' || v.state === 'bot';
  const data = gone ? { responseContext: {}, contents: {}, currentVideoEndpoint: { watchEndpoint: { videoId: v.id } } } : initialData(v);
  const scripts =
    `<script>var ytInitialPlayerResponse = ${scriptJson(player(v, site, media))};var meta = document.createElement('meta');</script>` +
    `<script nonce="sim">var ytInitialData = ${scriptJson(data)};</script>`;
  return pageHtml(v.title, `${site}/watch?v=${v.id}`, scripts);
}

function lines(v: SimVideo | undefined, lang: string, kind: string): CaptionLine[] | undefined {
  return v?.tracks.find((t) => t.lang === lang && t.kind === kind)?.lines;
}

/** `fmt=json3` of a track: ASR tracks split lines into word segments and add newline events. */
export function json3(id: string, lang: string, kind: string): string | undefined {
  const l = lines(VIDEOS[id], lang, kind);
  if (!l) return undefined;
  const events: unknown[] = [{ tStartMs: 0, dDurationMs: l[l.length - 1]!.start + l[l.length - 1]!.dur, id: 1, wpWinPosId: 1, wsWinStyleId: 1 }];
  for (const line of l) {
    if (kind === 'asr') {
      const words = line.text.split(' ');
      events.push({ tStartMs: line.start, dDurationMs: line.dur, wWinId: 1, segs: words.map((w, i) => (i === 0 ? { utf8: w, acAsrConf: 0 } : { utf8: ` ${w}`, tOffsetMs: i * 300, acAsrConf: 0 })) });
      events.push({ tStartMs: line.start + line.dur - 10, dDurationMs: 10, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] });
    } else {
      events.push({ tStartMs: line.start, dDurationMs: line.dur, segs: [{ utf8: line.text }] });
    }
  }
  return JSON.stringify({ wireMagic: 'pb3', pens: [{}], wsWinStyles: [{}], wpWinPositions: [{}], events });
}

/** The `get_transcript` answer for a video and track, or undefined. */
export function transcript(id: string, lang: string, kind: string): string | undefined {
  const v = VIDEOS[id];
  const l = lines(v, lang, kind);
  if (!v || !l) return undefined;
  const segs = l.map((line) => ({
    transcriptSegmentRenderer: { startMs: String(line.start), endMs: String(line.start + line.dur), snippet: { runs: [{ text: line.text }] }, startTimeText: { simpleText: clock(Math.floor(line.start / 1000)) }, trackingParams: 'sim' },
  }));
  const menu = v.tracks.map((t) => ({ title: t.name, selected: t.lang === lang && t.kind === kind }));
  return JSON.stringify({
    responseContext: {},
    actions: [{ updateEngagementPanelAction: { targetId: 'engagement-panel-searchable-transcript', content: { transcriptRenderer: { content: { transcriptSearchPanelRenderer: {
      body: { transcriptSegmentListRenderer: { initialSegments: segs } },
      footer: { transcriptFooterRenderer: { languageMenu: { sortFilterSubMenuRenderer: { subMenuItems: menu } } } },
      targetId: 'engagement-panel-searchable-transcript-search-panel',
    } } } } } }],
  });
}
