import type { IncomingMessage, ServerResponse } from 'node:http';
import { Email, VALIDATION } from '@hookreel/contracts';
import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Provider } from 'oidc-provider';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { createLocalProviderSource, INTERACTION_PATH, LOCAL_OIDC_MOUNT_PATH } from './local-provider.ts';
import { PAGE_CSP, renderAccountChooser, renderMessagePage } from './pages.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Recently chosen accounts live in this browser only (like Google's chooser), never listed from the database. */
const RECENT_COOKIE = 'hookreel_oidc_accounts';
const RECENT_MAX = 5;
const RECENT_MAX_AGE_SEC = 180 * 24 * 3600;

// Paths below are relative to the /api prefix the route modules are registered under.
const MOUNT = LOCAL_OIDC_MOUNT_PATH.replace(/^\/api/, '');
const InteractionParams = z.object({ uid: z.string().min(1).max(100) });
const ChooseAccountForm = z.object({ email: z.string().max(320).optional(), account: z.string().max(320).optional() });

/**
 * Mounts the local provider under /api/oidc: our own "Choose an account" interaction routes, and the
 * provider's Koa-style handler for everything else (discovery, authorize, token, JWKS).
 */
export async function mountLocalOidcProvider(api: App, ctx: AppContext, rateLimit: RateLimitOptions): Promise<void> {
  const providerFor = createLocalProviderSource(ctx.config);
  const handlers = new WeakMap<Provider, NodeHandler>();
  const secureCookies = ctx.config.publicUrl.startsWith('https:');

  await api.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    scope.get(
      `${MOUNT}${INTERACTION_PATH}/:uid`,
      { schema: { hide: true, params: InteractionParams } },
      async (request, reply) => {
        const provider = await providerFor();
        const interaction = await currentInteraction(provider, request, reply, request.params.uid);
        if (!interaction) return sendExpired(reply);
        if (interaction.prompt.name !== 'login')
          return reply.redirect(await autoConsent(provider, interaction, request, reply), 303);
        return sendPage(
          reply,
          200,
          renderAccountChooser({ action: actionOf(request), recent: recentAccounts(request) }),
        );
      },
    );

    scope.post(
      `${MOUNT}${INTERACTION_PATH}/:uid`,
      { schema: { hide: true, params: InteractionParams, body: ChooseAccountForm }, config: { rateLimit } },
      async (request, reply) => {
        const provider = await providerFor();
        const interaction = await currentInteraction(provider, request, reply, request.params.uid);
        if (!interaction) return sendExpired(reply);
        if (interaction.prompt.name !== 'login')
          return reply.redirect(await autoConsent(provider, interaction, request, reply), 303);

        const recent = recentAccounts(request);
        const typed = request.body.account ?? request.body.email ?? '';
        const email = Email.safeParse(typed);
        if (!email.success) {
          const page = renderAccountChooser({
            action: actionOf(request),
            recent,
            email: typed,
            error: VALIDATION.email,
          });
          return sendPage(reply, 422, page);
        }
        const returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { login: { accountId: email.data } },
          { mergeWithLastSubmission: false },
        );
        const remembered = [email.data, ...recent.filter((e) => e !== email.data)].slice(0, RECENT_MAX);
        reply.setCookie(RECENT_COOKIE, Buffer.from(JSON.stringify(remembered)).toString('base64url'), {
          path: `${LOCAL_OIDC_MOUNT_PATH}${INTERACTION_PATH}`,
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookies,
          maxAge: RECENT_MAX_AGE_SEC,
        });
        return reply.redirect(returnTo, 303);
      },
    );
  });

  await api.register(async (scope) => {
    // The provider reads its own request bodies (token endpoint forms), so Fastify must leave the stream alone.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));
    scope.all(`${MOUNT}/*`, { schema: { hide: true } }, async (request, reply) => {
      const provider = await providerFor();
      let handle = handlers.get(provider);
      if (!handle) handlers.set(provider, (handle = provider.callback()));
      // Like Express mounting: the provider sees paths relative to its mount point and finds the mount point
      // again from originalUrl when it builds its own URLs.
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = (raw.url ?? '/').slice(LOCAL_OIDC_MOUNT_PATH.length) || '/';
      reply.hijack();
      handle(raw, reply.raw);
    });
  });
}

/** The interaction bound to this browser's interaction cookie, or null when it expired or is someone else's. */
async function currentInteraction(
  provider: Provider,
  request: FastifyRequest,
  reply: FastifyReply,
  uid: string,
): Promise<Interaction | null> {
  try {
    const interaction = await provider.interactionDetails(request.raw, reply.raw);
    return interaction.uid === uid ? interaction : null;
  } catch {
    return null;
  }
}

/** Our own app is the only client, so consent is implied: grant exactly what was asked for. */
async function autoConsent(
  provider: Provider,
  interaction: Interaction,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<string> {
  const { details } = interaction.prompt;
  const grant = interaction.grantId
    ? await provider.Grant.find(interaction.grantId)
    : new provider.Grant({ accountId: interaction.session?.accountId, clientId: String(interaction.params.client_id) });
  if (!grant) throw new Error('grant not found');
  const missingScope = details.missingOIDCScope as string[] | undefined;
  const missingClaims = details.missingOIDCClaims as string[] | undefined;
  const missingResourceScopes = details.missingResourceScopes as Record<string, string[]> | undefined;
  if (missingScope) grant.addOIDCScope(missingScope.join(' '));
  if (missingClaims) grant.addOIDCClaims(missingClaims);
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes.join(' '));
  const grantId = await grant.save();
  return provider.interactionResult(
    request.raw,
    reply.raw,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

function recentAccounts(request: FastifyRequest): string[] {
  const raw = request.cookies[RECENT_COOKIE];
  if (!raw) return [];
  try {
    const list: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (!Array.isArray(list)) return [];
    return list
      .flatMap((e) => {
        const parsed = Email.safeParse(e);
        return parsed.success ? [parsed.data] : [];
      })
      .slice(0, RECENT_MAX);
  } catch {
    return [];
  }
}

const actionOf = (request: FastifyRequest): string => (request.raw.url ?? '').split('?')[0] ?? '';

function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .send(html);
}

const sendExpired = (reply: FastifyReply) =>
  sendPage(
    reply,
    400,
    renderMessagePage(
      'Sign-in expired',
      'This sign-in page has expired. Go back to Hookreel and choose Continue with Google again.',
    ),
  );
