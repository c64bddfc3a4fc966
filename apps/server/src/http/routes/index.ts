import type { preHandlerAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { App } from '../types.ts';
import { staticRoutes } from './static.ts';
import { projectRoutes } from './projects.ts';
import { avatarRoutes } from './avatars.ts';
import { creatorRoutes } from './creators.ts';
import { actorLookRoutes } from './actor-looks.ts';
import { authRoutes } from './auth.ts';
import { userRoutes } from './user.ts';
import { jobRoutes } from './jobs.ts';
import { hookRoutes } from './hooks.ts';
import { mergeRoutes } from './merge.ts';
import { musicRoutes } from './music.ts';
import { voiceOverRoutes } from './voice-over.ts';
import { statsRoutes } from './stats.ts';
import { capabilityRoutes } from './capabilities.ts';
import { billingRoutes } from './billing.ts';
import { generateRoutes } from './generate.ts';
import { integrationRoutes } from './integrations.ts';
import { batchRoutes } from './batches.ts';
import { brandKitRoutes } from './brand-kit.ts';
import { voiceRoutes } from './voices.ts';

export interface RouteDeps {
  ctx: AppContext;
  requireUser: preHandlerAsyncHookHandler;
  /** requireUser, or the job event stream's short-lived ticket (GET /jobs/events only). */
  requireStreamUser: preHandlerAsyncHookHandler;
  /** A signed-in session, never a personal API key: managing keys, webhooks and the account (decision 131). */
  requireSession: preHandlerAsyncHookHandler;
  /** Every upload route's preHandler: one per-user budget of uploads (see uploads/rate-limit.ts). */
  limitUploads: preHandlerAsyncHookHandler;
}
export type RouteModule = (api: App, deps: RouteDeps) => Promise<void>;

/** Each area's routes, registered under /api. */
export const API_ROUTES: readonly RouteModule[] = [
  staticRoutes,
  projectRoutes,
  avatarRoutes,
  creatorRoutes,
  actorLookRoutes,
  authRoutes,
  userRoutes,
  jobRoutes,
  hookRoutes,
  mergeRoutes,
  musicRoutes,
  voiceOverRoutes,
  capabilityRoutes,
  billingRoutes,
  statsRoutes,
  generateRoutes,
  integrationRoutes,
  batchRoutes,
  brandKitRoutes,
  voiceRoutes,
];
