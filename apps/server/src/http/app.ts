import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { LIMITS, MESSAGES } from '@hookreel/contracts';
import Fastify from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../context.ts';
import { userExists } from '../services/users.ts';
import { createUploadLimiter } from '../uploads/rate-limit.ts';
import { createAuthGuard } from './auth-guard.ts';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandler } from './error-handler.ts';
import { API_ROUTES } from './routes/index.ts';
import type { App } from './types.ts';

export async function buildApp(ctx: AppContext): Promise<App> {
  const app = Fastify({
    logger: { level: ctx.config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: true,
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
      },
    },
    crossOriginEmbedderPolicy: false,
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
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  const requireUser = createAuthGuard(ctx.tokens, (id) => userExists(ctx, id));
  await app.register(
    async (api) => {
      api.get('/health', async () => ({ status: 'ok' }));
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      const limitUploads = createUploadLimiter(ctx.config.uploadRateLimit);
      for (const register of API_ROUTES) await register(api as App, { ctx, requireUser, limitUploads });
    },
    { prefix: '/api' },
  );

  await serveWebApp(app, ctx);
  return app as App;
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
  app.get('/*', async (request, reply) => {
    if (request.url.startsWith('/api/')) return reply.status(404).send({ detail: MESSAGES.server.notFound });
    const file = request.url.split('?')[0] ?? '/';
    if (file !== '/' && /\.[a-z0-9]+$/i.test(file)) return reply.status(404).send({ detail: MESSAGES.server.notFound });
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
