/**
 * The video platform (`media/video/...`): watch pages, captions and transcripts, channels with
 * continuations, search with the `sp` filter, suggestions and trainability; hosts `video`,
 * `video_api` and `video_suggest` from GLEANER_TARGETS (plan.ts documents the requests).
 */
import type { TargetAdapter } from '../adapter.js';
import { PARSERS } from './parsers.js';
import { planVideo, VIDEO_HOSTS } from './plan.js';
import { VIDEO_ROUTES } from './routes.js';
import { OUTPUT_SCHEMAS } from './schemas.js';

export const video: TargetAdapter = {
  name: 'video',
  routes: VIDEO_ROUTES,
  plan: planVideo,
  parsers: PARSERS,
  outputSchemas: OUTPUT_SCHEMAS,
  hosts: VIDEO_HOSTS,
  // Its walls (consent interstitial, unusual-traffic captcha) are tied to the address, not to
  // the client, and its flows read the raw player data: a browser would not get further.
  escalation: { browser: false },
};
