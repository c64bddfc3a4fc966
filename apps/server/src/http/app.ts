import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LIMITS, MESSAGES } from '@hookreel/contracts';
import { z } from 'zod';
import Fastify, { type FastifyRequest } from 'fastify';
import type { DestinationStream } from 'pino';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { publicStats } from '../services/jobs/index.ts';
import { sessionStands } from '../services/account/index.ts';
import { createUploadLimiter } from '../uploads/rate-limit.ts';
import { authenticateApiKey } from '../services/integrations/index.ts';
import { createAuthGuard, createKeyChecker, createSessionGuard, createStreamGuard } from './auth-guard.ts';
import { badRequest } from '../errors.ts';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './error-handler.ts';
import { withPublicFigures } from './prerendered-figures.ts';
import { OPENAPI_EXTENSIONS, OPENAPI_SCHEMAS, OPENAPI_SECURITY_SCHEMES } from './openapi-extras.ts';
import { API_ROUTES } from './routes/index.ts';
import type { App } from './types.ts';

/** `logStream`: where request logs go instead of stdout (tests read what the log would show). */
export async function buildApp(ctx: AppContext, opts: { logStream?: DestinationStream } = {}): Promise<App> {
  const https = ctx.config.publicUrl.startsWith('https:');
  const app = Fastify({
    logger: {
      level: ctx.config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      // Request lines never carry secrets: query strings (codes, links, tickets) are cut, and credentials in
      // headers are censored should anything log the headers.
      serializers: { req: serializeRequest },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'res.headers["set-cookie"]',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    bodyLimit: 1024 * 1024,
    // Only the proxies TRUST_PROXY names may say who the client is; by default X-Forwarded-For is ignored.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Errors raised before routing or by Node's parser answer as {detail} too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'", ...formTargets(ctx)],
        baseUri: ["'self'"],
        // Helmet adds upgrade-insecure-requests by default, which blanks the app on any plain-HTTP host but
        // localhost (every asset is rewritten to https). Only when we are served over https.
        upgradeInsecureRequests: https ? [] : null,
      },
    },
    // HSTS on plain HTTP is ignored by browsers at best and a trap when https comes later; only over https.
    hsts: https ? { maxAge: 15_552_000, includeSubDomains: false } : false,
    crossOriginEmbedderPolicy: false,
  });
  // A bearer token in a URL leaks into logs, history and Referer headers: refused outright on the API.
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const query = request.url.indexOf('?');
    if (query === -1) return;
    const params = new URLSearchParams(request.url.slice(query + 1));
    if (params.has('access_token') || params.has('refresh_token')) throw badRequest(MESSAGES.server.accessTokenInUrl);
  });
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(multipart, {
    limits: {
      fileSize: LIMITS.uploadMaxBytes,
      files: LIMITS.avatarUploadMaxFiles,
      fields: 20,
      fieldSize: 64 * 1024,
      parts: 60,
    },
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Hookreel API', version: '0.1.0', description: 'Generated from packages/contracts.' },
      components: { securitySchemes: OPENAPI_SECURITY_SCHEMES, schemas: OPENAPI_SCHEMAS },
      ...OPENAPI_EXTENSIONS,
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  if (ctx.config.billing.mode === 'demo') {
    // Loud on purpose: anyone who can sign in and verify an address can take credits for nothing (decision 173).
    app.log.warn(
      { billing: 'demo' },
      'BILLING=demo: DEMO MONEY IS ON. Every verified account can buy credits without paying. Use BILLING=off or BILLING=stripe on a server others can reach.',
    );
  }
  if (ctx.config.webhookTestOrigins.length > 0) {
    app.log.warn(
      { origins: ctx.config.webhookTestOrigins },
      'UNSAFE_WEBHOOK_TEST_ORIGINS is set: webhooks may reach these local origins (for tests only)',
    );
  }
  const sessionLive = (id: number, issuedAtMs: number) => sessionStands(ctx, id, issuedAtMs);
  // One key budget shared by the guards, so the event stream and the other routes count against the same limit.
  const checkKey = createKeyChecker({
    authenticate: (token) => authenticateApiKey(ctx, token),
    perMinute: ctx.config.apiKeyRateLimit,
  });
  const requireUser = createAuthGuard(ctx.tokens, sessionLive, checkKey);
  const requireStreamUser = createStreamGuard(ctx.tokens, sessionLive, checkKey);
  const requireSession = createSessionGuard(ctx.tokens, sessionLive);
  await app.register(
    async (api) => {
      api.get('/health', async () => ({ status: 'ok' }));
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      const limitUploads = createUploadLimiter(ctx.config.uploadRateLimit);
      for (const register of API_ROUTES)
        await register(api as App, { ctx, requireUser, requireStreamUser, requireSession, limitUploads });
    },
    { prefix: '/api' },
  );

  await serveWebApp(app, ctx);
  return app as App;
}

/** A hop count as the function Fastify would make of it (its types only admit lists and booleans). */
function trustProxyOption(value: false | number | string[]) {
  return typeof value === 'number' ? (_address: string, hop: number) => hop < value : value;
}

/** The request as logged: method and path, never the query string (it may hold one-time codes or tickets). */
function serializeRequest(request: FastifyRequest) {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? url : `${url.slice(0, query)}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
  };
}

function formTargets(ctx: AppContext): string[] {
  return ctx.config.google ? [new URL(ctx.config.google.issuer).origin] : [];
}

/** The built SPA is served from the same origin; unknown non-API paths get index.html for client routing. */
async function serveWebApp(app: App, ctx: AppContext): Promise<void> {
  const dist = ctx.config.webDist;
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.log.warn({ dist }, 'web app not built; serving the API only');
    return;
  }
  await app.register(fastifyStatic, { root: dist, prefix: '/', wildcard: false, index: false });
  // The public screens come prerendered (apps/web/prerender.mjs, decision 114): path → page name.
  const prerendered = readPrerenderedRoutes(dist);
  app.get('/*', async (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.status(404).send({ detail: MESSAGES.server.notFound });
    const file = request.url.split('?')[0] ?? '/';
    if (file !== '/' && /\.[a-z0-9]+$/i.test(file)) return reply.status(404).send({ detail: MESSAGES.server.notFound });
    const page = prerendered.get(file);
    reply.header('cache-control', 'no-cache');
    if (!page) return reply.sendFile('index.html');
    // Read on each request, as a static file would be: a rebuilt web app is served without a restart.
    const html = await readFile(path.join(dist, 'prerendered', `${page}.html`), 'utf8');
    return reply.type('text/html; charset=utf-8').send(await prerenderedPage(ctx, html));
  });
}

/**
 * A prerendered page as sent: with this installation's figures written in (decision 115). Should counting them
 * fail, the page goes out as built, with its "not yet known" figures, which the app fills in once loaded.
 */
async function prerenderedPage(ctx: AppContext, html: string): Promise<string> {
  if (!html.includes('data-figure=')) return html;
  try {
    return withPublicFigures(html, await publicStats(ctx));
  } catch {
    return html;
  }
}

/** The prerendered pages the web build wrote (dist/prerendered/routes.json), or none. */
function readPrerenderedRoutes(dist: string): Map<string, string> {
  const file = path.join(dist, 'prerendered', 'routes.json');
  if (!existsSync(file)) return new Map();
  const routes = z.record(z.string(), z.string()).safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!routes.success) return new Map();
  return new Map(
    Object.entries(routes.data).filter(
      ([route, name]) =>
        route.startsWith('/') && /^[a-z-]+$/.test(name) && existsSync(path.join(dist, 'prerendered', `${name}.html`)),
    ),
  );
}
