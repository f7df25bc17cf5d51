/** The video platform (`media/video/...`): routes only so far; pages follow the default convention. */
import type { TargetAdapter } from '../adapter.js';
import { planDefault } from '../default.js';
import { VIDEO_ROUTES } from './routes.js';

export const video: TargetAdapter = { name: 'video', routes: VIDEO_ROUTES, plan: planDefault, parsers: {} };
