import {
  AdminCreditAdjustment,
  AdminCreditAdjustmentResult,
  BillingState,
  CheckoutRequest,
  ErrorResponse,
  LedgerPage,
  LedgerQuery,
  PriceList,
  RedirectUrl,
  RefundDecision,
  RefundRequest,
  RefundRequestBody,
  IdParam,
  ProviderUsageByPlan,
  ProviderUsageQuery,
} from '@hookreel/contracts';
import { z } from 'zod';
import { adjustCredits } from '../../services/billing/index.ts';
import { asAdmin } from '../../services/account/index.ts';
import { billingState, checkout, handleWebhook, portal } from '../../services/billing/index.ts';
import { ledgerPage, priceList } from '../../services/billing/index.ts';
import { decideRefund, listOwnRefunds, listRefundsForAdmin, requestRefund } from '../../services/billing/index.ts';
import { providerUsageByPlan } from '../../services/billing/index.ts';
import { callerOf } from '../auth-guard.ts';
import { IdempotencyHeaders, sendIdempotent } from '../idempotency.ts';
import type { RouteModule } from './index.ts';

const errors = { 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse };

/** Credits (prices, ledger, refunds), billing (checkout, portal, webhook) and administrators' credit tools. */
export const billingRoutes: RouteModule = async (api, { ctx, requireUser }) => {
  const security = [{ bearer: [] }];

  api.get('/credits/prices', { schema: { tags: ['credits'], response: { 200: PriceList } } }, async () =>
    priceList(ctx),
  );

  api.get(
    '/credits/ledger',
    {
      preHandler: requireUser,
      schema: { tags: ['credits'], security, querystring: LedgerQuery, response: { 200: LedgerPage, ...errors } },
    },
    async (request) => ledgerPage(ctx, request.userId, request.query.cursor),
  );

  api.get(
    '/credits/refunds',
    { preHandler: requireUser, schema: { tags: ['credits'], security, response: { 200: z.array(RefundRequest) } } },
    async (request) => listOwnRefunds(ctx, request.userId),
  );

  api.post(
    '/jobs/:id/refund-request',
    {
      preHandler: requireUser,
      schema: {
        tags: ['credits'],
        security,
        params: IdParam,
        body: RefundRequestBody,
        response: { 201: RefundRequest, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await requestRefund(ctx, request.userId, request.params.id, request.body.reason)),
  );

  api.get(
    '/billing/subscription',
    { preHandler: requireUser, schema: { tags: ['billing'], security, response: { 200: BillingState } } },
    async (request) => billingState(ctx, callerOf(request)),
  );

  api.post(
    '/billing/checkout',
    {
      preHandler: requireUser,
      schema: {
        tags: ['billing'],
        security,
        headers: IdempotencyHeaders,
        body: CheckoutRequest,
        response: { 200: RedirectUrl, 400: ErrorResponse, 502: ErrorResponse, ...errors },
      },
    },
    // A demo checkout grants credits at once: a double click or retry with the same key must grant once.
    async (request, reply) =>
      sendIdempotent(ctx, request, reply, request.body, () => checkout(ctx, callerOf(request), request.body)),
  );

  api.post(
    '/billing/portal',
    {
      preHandler: requireUser,
      schema: { tags: ['billing'], security, response: { 200: RedirectUrl, 502: ErrorResponse, ...errors } },
    },
    async (request) => portal(ctx, callerOf(request)),
  );

  // Stripe calls this with a signed raw body; it exists only when Stripe billing is configured.
  if (ctx.config.billing.mode === 'stripe') {
    await api.register(async (hook) => {
      hook.removeContentTypeParser('application/json');
      hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
      hook.post('/billing/webhook', { schema: { tags: ['billing'], hide: true } }, async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const sig = request.headers['stripe-signature'];
        const outcome = await handleWebhook(ctx, body, typeof sig === 'string' ? sig : undefined);
        return { received: true, outcome };
      });
    });
  }

  // Administrators (ADMIN_EMAILS): each action is checked and logged with its credential (decision 175).
  api.post(
    '/admin/credits',
    {
      preHandler: requireUser,
      schema: {
        tags: ['admin'],
        security,
        body: AdminCreditAdjustment,
        response: { 200: AdminCreditAdjustmentResult, ...errors },
      },
    },
    async (request) =>
      asAdmin(
        ctx,
        callerOf(request),
        `credits.${request.body.action}`,
        { target: `email:${request.body.email.trim().toLowerCase()}`, amount: request.body.amount },
        (admin) => adjustCredits(ctx, admin.email, request.body),
      ),
  );

  api.get(
    '/admin/refunds',
    {
      preHandler: requireUser,
      schema: { tags: ['admin'], security, response: { 200: z.array(RefundRequest), ...errors } },
    },
    async (request) => asAdmin(ctx, callerOf(request), 'refunds.list', {}, () => listRefundsForAdmin(ctx)),
  );

  api.get(
    '/admin/provider-usage',
    {
      preHandler: requireUser,
      schema: {
        tags: ['admin'],
        security,
        querystring: ProviderUsageQuery,
        response: { 200: ProviderUsageByPlan, ...errors },
      },
    },
    async (request) =>
      asAdmin(ctx, callerOf(request), 'provider_usage.read', { days: request.query.days }, () =>
        providerUsageByPlan(ctx, request.query.days),
      ),
  );

  api.post(
    '/admin/refunds/:id',
    {
      preHandler: requireUser,
      schema: {
        tags: ['admin'],
        security,
        params: IdParam,
        body: RefundDecision,
        response: { 200: RefundRequest, ...errors },
      },
    },
    async (request) =>
      asAdmin(
        ctx,
        callerOf(request),
        `refunds.${request.body.decision}`,
        { target: `refund:${request.params.id}` },
        (admin) => decideRefund(ctx, admin.email, request.params.id, request.body.decision, request.body.note),
      ),
  );
};
