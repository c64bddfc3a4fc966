import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { ZodType } from 'zod';

/** One route as the app registered it (HEAD twins of GET routes are left out: Fastify adds them itself). */
export interface RouteInfo {
  method: string;
  /** The full URL template, e.g. `/api/projects/:id` or `/api/static/*`. */
  url: string;
  /** The zod schemas the route declared, when it declared any. */
  schema: {
    body?: ZodType;
    querystring?: ZodType;
    params?: ZodType;
    headers?: ZodType;
    response?: Record<string, ZodType>;
    consumes?: string[];
  };
}

export const routeKey = (r: { method: string; url: string }): string => `${r.method} ${r.url}`;

/**
 * Runs `start` (which builds a Fastify app) and records every route the app registers, through Fastify's
 * `fastify.initialization` diagnostics channel and an onRoute hook. Nothing in the app has to cooperate, so a
 * route added tomorrow shows up here without touching the tests.
 */
export async function collectRoutes<T>(start: () => Promise<T>): Promise<{ result: T; routes: RouteInfo[] }> {
  const routes = new Map<string, RouteInfo>();
  const channel = diagnostics.channel('fastify.initialization');
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (opts: RouteOptions) => {
      const methods = Array.isArray(opts.method) ? opts.method : [opts.method];
      for (const method of methods) {
        if (method === 'HEAD') continue;
        const info: RouteInfo = { method, url: opts.url, schema: (opts.schema ?? {}) as RouteInfo['schema'] };
        routes.set(routeKey(info), info);
      }
    });
  };
  channel.subscribe(onInit);
  try {
    const result = await start();
    return { result, routes: [...routes.values()].sort((a, b) => routeKey(a).localeCompare(routeKey(b))) };
  } finally {
    channel.unsubscribe(onInit);
  }
}

/** The URL template with its `:params` (and a trailing `*`) replaced; values are inserted as given (unescaped). */
export function fillPath(url: string, values: Record<string, string>, wildcard = ''): string {
  return url.replace(/:([A-Za-z_]+)/g, (_, name: string) => values[name] ?? '1').replace(/\*$/, wildcard);
}

/** The names of a template's `:params`. */
export const paramsOf = (url: string): string[] => [...url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
