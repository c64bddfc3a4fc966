import {
  ExchangeRequest,
  GoogleLoginQuery,
  LoginRequest,
  LogoutRequest,
  RefreshRequest,
  RegisterRequest,
  TokenPair,
} from '@hookreel/contracts';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  EXCHANGE_COOKIE,
  EXCHANGE_COOKIE_PATH,
  FLOW_COOKIE,
  FLOW_COOKIE_PATH,
  FLOW_TTL_SEC,
  openFlowState,
  sealFlowState,
} from '../../auth/oidc/flow-cookie.ts';
import { mountLocalOidcProvider } from '../../auth/oidc/local-provider-http.ts';
import { renderMessagePage, sendPage } from '../../auth/oidc/pages.ts';
import { createSignInClient } from '../../auth/oidc/sign-in-client.ts';
import { authRateLimit } from '../../auth/rate-limit.ts';
import * as auth from '../../services/account/index.ts';
import type { RouteModule } from './index.ts';

const ErrorBody = z.object({ detail: z.string() });
const VerifyQuery = z.object({ token: z.string().max(200).optional() });

/** /api/auth/*: e-mail + password accounts, refresh rotation, and "Continue with Google" (OpenID Connect). */
export const authRoutes: RouteModule = async (api, { ctx, requireUser }) => {
  const rateLimit = authRateLimit(ctx.config.authRateLimit);
  const limited = { rateLimit };
  const tags = ['auth'];
  const secureCookie = () => ctx.config.publicUrl.startsWith('https:');

  api.post(
    '/auth/register',
    {
      config: limited,
      schema: { tags, body: RegisterRequest, response: { 201: TokenPair, 409: ErrorBody, 429: ErrorBody } },
    },
    async (request, reply) => reply.status(201).send(await auth.register(ctx, request.body, request.ip)),
  );

  api.post(
    '/auth/login',
    {
      config: limited,
      schema: { tags, body: LoginRequest, response: { 200: TokenPair, 401: ErrorBody, 429: ErrorBody } },
    },
    async (request) => auth.login(ctx, request.body, request.ip),
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

  // The link in the verification mail. A GET that changes state on purpose: opening the mail's link is the
  // proof. Answers with a small page of its own (like the sign-in pages), never with tokens.
  api.get(
    auth.VERIFY_EMAIL_PATH.replace(/^\/api/, ''),
    { config: limited, schema: { tags, hide: true, querystring: VerifyQuery } },
    async (request, reply) => {
      const email = request.query.token ? await auth.verifyEmailLink(ctx, request.query.token) : null;
      const page = email
        ? renderMessagePage('E-mail address confirmed', `${email} is confirmed. You can go back to Hookreel.`, {
            href: `${ctx.config.publicUrl}/projects`,
            label: 'Open Hookreel',
          })
        : renderMessagePage(
            'Link expired',
            'This confirmation link has expired or was already used. Sign in to Hookreel and ask for a new one.',
          );
      return sendPage(reply, email ? 200 : 400, page);
    },
  );

  api.post(
    '/auth/verify-email/resend',
    { preHandler: requireUser, config: limited, schema: { tags, security: [{ bearer: [] }] } },
    async (request, reply) => {
      await auth.resendVerification(ctx, request.userId);
      return reply.status(204).send();
    },
  );

  const signIn = createSignInClient(ctx.config);

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
    if (flow) setExchangeCookie(reply, flow.binding);
    return reply.header('cache-control', 'no-store').redirect(location, 302);
  });

  /** The front-end callback page trades its one-time `code` for tokens here; this browser's cookie must match. */
  api.post(
    '/auth/exchange',
    { config: limited, schema: { tags, body: ExchangeRequest, response: { 200: TokenPair, 401: ErrorBody } } },
    async (request, reply) => {
      const pair = await auth.exchange(ctx, request.body.code, request.cookies[EXCHANGE_COOKIE]);
      reply.clearCookie(EXCHANGE_COOKIE, exchangeCookieOptions());
      return reply.header('cache-control', 'no-store').send(pair);
    },
  );

  const exchangeCookieOptions = () => ({
    path: EXCHANGE_COOKIE_PATH,
    httpOnly: true,
    // Strict: only our own page's POST carries it, never a request another site starts.
    sameSite: 'strict' as const,
    secure: secureCookie(),
  });
  function setExchangeCookie(reply: FastifyReply, binding: string) {
    reply.setCookie(EXCHANGE_COOKIE, binding, { ...exchangeCookieOptions(), maxAge: auth.EXCHANGE_CODE_TTL_SEC });
  }

  if (!ctx.config.google) await mountLocalOidcProvider(api, ctx, rateLimit);
};
