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
import {
  EMAIL_SIGN_IN_ERRORS,
  peekSignInLink,
  pendingSignInEmail,
  redeemSignInCode,
  redeemSignInLink,
  sendSignInMail,
} from '../../services/account/index.ts';
import { renderCheckMail, renderConfirmLink, renderEmailForm, renderMessagePage, sendPage } from './pages.ts';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

// Paths below are relative to the /api prefix the route modules are registered under.
const MOUNT = LOCAL_OIDC_MOUNT_PATH.replace(/^\/api/, '');
const InteractionParams = z.object({ uid: z.string().min(1).max(100) });
const EmailForm = z.object({ email: z.string().max(320).optional() });
const CodeForm = z.object({ code: z.string().max(20).optional() });
const LinkQuery = z.object({ token: z.string().max(200).optional() });
const LinkForm = z.object({ token: z.string().max(200).optional() });

/**
 * Mounts the local provider under /api/oidc: our own sign-in-by-e-mail interaction routes (address → mail
 * with a one-time link and code → signed in), and the provider's Koa-style handler for everything else
 * (discovery, authorize, token, JWKS). Typing an address alone signs nobody in: only the link or code from
 * the mail sent to it does.
 */
export async function mountLocalOidcProvider(api: App, ctx: AppContext, rateLimit: RateLimitOptions): Promise<void> {
  const providerFor = createLocalProviderSource(ctx.config);
  const handlers = new WeakMap<Provider, NodeHandler>();
  const pagePath = (uid: string, step = '') => `${LOCAL_OIDC_MOUNT_PATH}${INTERACTION_PATH}/${uid}${step}`;
  const whereToLook =
    ctx.mailer.transport === 'outbox'
      ? 'No mail server is set up for this Hookreel, so the e-mail was saved as a file in the outbox folder of ' +
        'its data directory (DATA_DIR/outbox). Whoever runs the server can open the newest .eml file there; the ' +
        'server printed where it is when it started.'
      : `Look in your inbox (and your spam folder) for an e-mail from ${ctx.config.mailFrom}.`;

  /**
   * The interaction waiting for a login in this browser; answers the request itself when there is none (with
   * `missing`, e.g. a mailed link opened in another browser, which should use the code instead).
   */
  async function loginInteraction(
    request: FastifyRequest,
    reply: FastifyReply,
    uid: string,
    missing: () => unknown = () => sendExpired(reply),
  ) {
    const provider = await providerFor();
    const interaction = await currentInteraction(provider, request, reply, uid);
    if (!interaction) {
      await missing();
      return null;
    }
    if (interaction.prompt.name !== 'login') {
      await reply.redirect(await autoConsent(provider, interaction, request, reply), 303);
      return null;
    }
    return { provider, interaction };
  }

  /** The mail proved the address: finish the login step and send the browser on through the provider. */
  async function finishLogin(request: FastifyRequest, reply: FastifyReply, provider: Provider, email: string) {
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId: email } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  }

  await api.register(async (plugin) => {
    const scope = plugin.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    const routeConfig = { config: { rateLimit } };

    scope.get(
      `${MOUNT}${INTERACTION_PATH}/:uid`,
      { schema: { hide: true, params: InteractionParams } },
      async (request, reply) => {
        const found = await loginInteraction(request, reply, request.params.uid);
        if (!found) return reply;
        return sendPage(reply, 200, renderEmailForm({ action: pagePath(request.params.uid) }));
      },
    );

    scope.post(
      `${MOUNT}${INTERACTION_PATH}/:uid`,
      { ...routeConfig, schema: { hide: true, params: InteractionParams, body: EmailForm } },
      async (request, reply) => {
        const { uid } = request.params;
        const found = await loginInteraction(request, reply, uid);
        if (!found) return reply;
        const typed = request.body.email ?? '';
        const email = Email.safeParse(typed);
        if (!email.success) {
          return sendPage(
            reply,
            422,
            renderEmailForm({ action: pagePath(uid), email: typed, error: VALIDATION.email }),
          );
        }
        const sent = await sendSignInMail(ctx, {
          email: email.data,
          interactionUid: uid,
          clientIp: request.ip,
          linkFor: (secret) => `${ctx.config.publicUrl}${pagePath(uid, '/link')}?token=${encodeURIComponent(secret)}`,
        });
        if (!sent.ok) {
          return sendPage(reply, 429, renderEmailForm({ action: pagePath(uid), email: email.data, error: sent.error }));
        }
        return sendPage(
          reply,
          200,
          renderCheckMail({
            codeAction: pagePath(uid, '/code'),
            restartAction: pagePath(uid),
            email: email.data,
            whereToLook,
          }),
        );
      },
    );

    scope.post(
      `${MOUNT}${INTERACTION_PATH}/:uid/code`,
      { ...routeConfig, schema: { hide: true, params: InteractionParams, body: CodeForm } },
      async (request, reply) => {
        const { uid } = request.params;
        const found = await loginInteraction(request, reply, uid);
        if (!found) return reply;
        const result = await redeemSignInCode(ctx, {
          interactionUid: uid,
          code: request.body.code ?? '',
          clientIp: request.ip,
        });
        if (result.ok) return finishLogin(request, reply, found.provider, result.value);
        const pending = await pendingSignInEmail(ctx, uid);
        return sendPage(
          reply,
          422,
          renderCheckMail({
            codeAction: pagePath(uid, '/code'),
            restartAction: pagePath(uid),
            email: pending ?? 'your address',
            whereToLook,
            error: result.error,
          }),
        );
      },
    );

    // The link in the mail. GET only asks; the POST behind its button signs in (mail scanners open links too).
    scope.get(
      `${MOUNT}${INTERACTION_PATH}/:uid/link`,
      { ...routeConfig, schema: { hide: true, params: InteractionParams, querystring: LinkQuery } },
      async (request, reply) => {
        const { uid } = request.params;
        const found = await loginInteraction(request, reply, uid, () => sendLinkElsewhere(reply));
        if (!found) return reply;
        const token = request.query.token ?? '';
        const email = token ? await peekSignInLink(ctx, uid, token) : null;
        if (!email) return sendLinkElsewhere(reply);
        return sendPage(reply, 200, renderConfirmLink({ action: pagePath(uid, '/link'), email, token }));
      },
    );

    scope.post(
      `${MOUNT}${INTERACTION_PATH}/:uid/link`,
      { ...routeConfig, schema: { hide: true, params: InteractionParams, body: LinkForm } },
      async (request, reply) => {
        const { uid } = request.params;
        const found = await loginInteraction(request, reply, uid, () => sendLinkElsewhere(reply));
        if (!found) return reply;
        const result = await redeemSignInLink(ctx, uid, request.body.token ?? '');
        if (!result.ok) return sendPage(reply, 400, renderMessagePage('Sign-in link', result.error));
        return finishLogin(request, reply, found.provider, result.value);
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

const sendExpired = (reply: FastifyReply) =>
  sendPage(
    reply,
    400,
    renderMessagePage(
      'Sign-in expired',
      'This sign-in page has expired, or was opened in another browser. Go back to Hookreel and choose Continue with Google again.',
    ),
  );

const sendLinkElsewhere = (reply: FastifyReply) =>
  sendPage(reply, 400, renderMessagePage('Sign-in link', EMAIL_SIGN_IN_ERRORS.linkElsewhere));
