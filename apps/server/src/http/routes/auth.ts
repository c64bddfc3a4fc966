import {
  GoogleLoginQuery,
  LoginRequest,
  LogoutRequest,
  RefreshRequest,
  RegisterRequest,
  TokenPair,
} from '@hookreel/contracts';
import { z } from 'zod';
import {
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
  FLOW_TTL_SEC,
  openFlowState,
  sealFlowState,
} from '../../auth/oidc/flow-cookie.ts';
import { mountLocalOidcProvider } from '../../auth/oidc/local-provider-http.ts';
import { createSignInClient } from '../../auth/oidc/sign-in-client.ts';
import { authRateLimit } from '../../auth/rate-limit.ts';
import * as auth from '../../services/auth.ts';
import type { RouteModule } from './index.ts';

const ErrorBody = z.object({ detail: z.string() });

/** /api/auth/*: e-mail + password accounts, refresh rotation, and "Continue with Google" (OpenID Connect). */
export const authRoutes: RouteModule = async (api, { ctx }) => {
  const rateLimit = authRateLimit(ctx.config.authRateLimit);
  const limited = { rateLimit };
  const tags = ['auth'];

  api.post(
    '/auth/register',
    { config: limited, schema: { tags, body: RegisterRequest, response: { 201: TokenPair, 409: ErrorBody } } },
    async (request, reply) => reply.status(201).send(await auth.register(ctx, request.body)),
  );

  api.post(
    '/auth/login',
    { config: limited, schema: { tags, body: LoginRequest, response: { 200: TokenPair, 401: ErrorBody } } },
    async (request) => auth.login(ctx, request.body),
  );

  api.post(
    '/auth/refresh',
    { config: limited, schema: { tags, body: RefreshRequest, response: { 200: TokenPair, 401: ErrorBody } } },
    async (request) => auth.refresh(ctx, request.body.refresh_token),
  );

  // The client may call logout without a body at all.
  api.post(
    '/auth/logout',
    { config: limited, schema: { tags, body: LogoutRequest.nullish() } },
    async (request, reply) => {
      await auth.logout(ctx, request.body?.refresh_token);
      return reply.status(204).send();
    },
  );

  const signIn = createSignInClient(ctx.config);
  const secureCookie = () => ctx.config.publicUrl.startsWith('https:');

  api.get(
    '/auth/google/login',
    { config: limited, schema: { tags, querystring: GoogleLoginQuery } },
    async (request, reply) => {
      const { location, flow } = await auth.startOidcSignIn(ctx, signIn, request.query.redirect_uri, request.log);
      if (flow) {
        reply.setCookie(FLOW_COOKIE, await sealFlowState(ctx.config.jwtSecret, flow), {
          path: FLOW_COOKIE_PATH,
          httpOnly: true,
          // Lax, not Strict: the provider sends the browser back with a cross-site top-level GET.
          sameSite: 'lax',
          secure: secureCookie(),
          maxAge: FLOW_TTL_SEC,
        });
      }
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  );

  api.get('/auth/google/callback', { config: limited, schema: { tags } }, async (request, reply) => {
    const flow = await openFlowState(ctx.config.jwtSecret, request.cookies[FLOW_COOKIE]);
    const callbackUrl = new URL(request.url, ctx.config.publicUrl);
    const location = await auth.finishOidcSignIn(ctx, signIn, callbackUrl, flow, request.log);
    reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookie() });
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  });

  if (!ctx.config.google) await mountLocalOidcProvider(api, ctx, rateLimit);
};
