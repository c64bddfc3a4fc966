import {
  CREDIT_BUNDLES,
  formatCredits,
  MESSAGES,
  perVideoPrice,
  PLANS,
  RedirectUrl,
  type BillingMode,
  type CheckoutRequest,
  type CreditBundle,
  type Plan,
  type PublicStats,
} from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  CheckIcon,
  CoinsIcon,
  ExternalLinkIcon,
  HistoryIcon,
  Loader2Icon,
  LockIcon,
  PackageIcon,
  SparklesIcon,
  TriangleAlertIcon,
} from 'lucide-react';
import { useEffect, useState, type ComponentProps, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { ButtonLink } from '@/components/button-link';
import { Page } from '@/components/layout/page';
import { deliveryAnswer, usePublicStats } from '@/lib/api/public-stats';
import { BillingToggle } from '@/components/pricing/billing-toggle';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { api, errorDetail } from '@/lib/api-client';
import { refreshCredits, useBillingState } from '@/lib/api/credits';
import { useAuth } from '@/lib/auth';
import { formatUsd, planPricing, type BillingPeriod } from '@/lib/pricing';
import { isRepeatClick } from '@/lib/repeat-click';
import { cn } from '@/lib/utils';

/** The FAQ; the delivery answer quotes the render time measured here (docs/decisions/110). */
const faqItems = (stats: PublicStats | undefined): { q: string; a: string }[] => [
  {
    q: 'How fast will I receive my videos?',
    a: deliveryAnswer(stats),
  },
  {
    q: 'What happens to credits I don’t use?',
    a: 'Unused credits roll over to the next month: up to 5 on Starter, up to 15 on Growth and without limit on Agency. One-time bundles never expire.',
  },
  {
    q: 'Can I change my plan later?',
    a: 'Yes. Upgrade or downgrade at any time; plan upgrades are prorated so you only pay the difference.',
  },
  {
    q: 'How do credits work?',
    a: 'One credit generates one finished video. Character and preview images cost a small fraction of a credit.',
  },
  {
    q: 'Can I cancel anytime?',
    a: 'Yes. Cancel whenever you like and keep your remaining credits until the end of the billing period.',
  },
];

function rolloverText(plan: Plan): string {
  return plan.rollover === 'unlimited' ? 'Unlimited credit rollover' : `Roll over up to ${plan.rollover} credits`;
}

function PlanCard({
  plan,
  period,
  processing,
  disabled,
  onSubscribe,
  current,
  change,
  describedBy,
}: {
  plan: Plan;
  period: BillingPeriod;
  processing: boolean;
  disabled: boolean;
  /** The id of the text saying why buying is disabled, if it is. */
  describedBy?: string | undefined;
  onSubscribe: ((plan: Plan) => void) | null;
  /** The user's plan at this billing period: shown as such, never offered again. */
  current: boolean;
  /** With a live Stripe subscription, plans change in the billing portal: this card is the current plan or not. */
  change: { current: boolean; open: () => void } | null;
}) {
  const p = planPricing(plan, period);
  return (
    <section
      aria-labelledby={`plan-${plan.id}`}
      data-testid={`plan-${plan.id}`}
      className={cn(
        'relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm transition-shadow hover:shadow-md',
        plan.popular && 'border-primary shadow-lg shadow-primary/10 ring-1 ring-primary lg:-translate-y-2',
      )}
    >
      {plan.popular ? (
        <Badge variant="brand" className="absolute -top-3 left-1/2 -translate-x-1/2 px-3 py-1 shadow">
          <SparklesIcon aria-hidden="true" />
          Most Popular
        </Badge>
      ) : null}
      <h2 id={`plan-${plan.id}`} className="text-lg font-semibold">
        {plan.name}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {plan.credits} credits · {plan.videos} videos per month
      </p>

      <div className="mt-6">
        <div className="flex items-baseline gap-1">
          <span data-testid="price" className="text-4xl font-bold tracking-tight">
            {formatUsd(p.price)}
          </span>
          <span className="text-muted-foreground">/{p.period}</span>
        </div>
        <div className="mt-1 min-h-10 text-sm text-muted-foreground">
          {p.perMonth !== null ? (
            <p>
              <span data-testid="per-month">{formatUsd(p.perMonth)}</span>/month billed yearly ·{' '}
              <span data-testid="savings" className="font-medium text-success">
                Save {formatUsd(p.savings ?? 0)}
              </span>
            </p>
          ) : null}
          <p>
            <span data-testid="per-video">${p.perVideo}</span> per video
          </p>
        </div>
      </div>

      {current && !change ? (
        <Button className="mt-6 w-full" variant="secondary" size="lg" disabled>
          Current plan
        </Button>
      ) : change ? (
        <Button
          className="mt-6 w-full"
          variant={change.current ? 'secondary' : 'outline'}
          size="lg"
          disabled={disabled || change.current}
          onClick={change.open}
        >
          {change.current ? 'Current plan' : 'Change plan'}
          {change.current ? null : <ExternalLinkIcon aria-hidden="true" />}
        </Button>
      ) : onSubscribe ? (
        <PayButton
          className="mt-6 w-full"
          variant={plan.popular ? 'brand' : 'outline'}
          size="lg"
          disabled={disabled}
          describedBy={describedBy}
          processing={processing}
          onPay={() => onSubscribe(plan)}
        >
          Subscribe
        </PayButton>
      ) : null}

      <ul className="mt-6 space-y-2.5 text-sm">
        {[...plan.features.filter((f) => !/^roll over|rollover/i.test(f)), rolloverText(plan)].map((f) => (
          <li key={f} className="flex gap-2">
            <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
            <span>{f}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** POST /api/billing/checkout: Stripe answers with its Checkout page; demo mode has already granted the credits. */
const startCheckout = async (body: CheckoutRequest) =>
  RedirectUrl.parse(await api.spend('/billing/checkout', body)).url;

function BundleCard({
  bundle,
  processing,
  disabled,
  onBuy,
  describedBy,
}: {
  bundle: CreditBundle;
  processing: boolean;
  disabled: boolean;
  describedBy?: string | undefined;
  onBuy: (bundle: CreditBundle) => void;
}) {
  return (
    <section
      aria-labelledby={`bundle-${bundle.id}`}
      data-testid={bundle.id}
      className="flex flex-col items-start gap-3 rounded-2xl border bg-card p-5 shadow-sm"
    >
      <div>
        <h3 id={`bundle-${bundle.id}`} className="font-semibold">
          {bundle.credits} credits
        </h3>
        <p className="text-sm text-muted-foreground">
          {formatUsd(bundle.price)} once · ${perVideoPrice(bundle.price, bundle.credits)} per video · never expire
        </p>
      </div>
      <PayButton
        variant="outline"
        className="w-full"
        disabled={disabled}
        describedBy={describedBy}
        processing={processing}
        onPay={() => onBuy(bundle)}
      >
        {`Buy ${bundle.credits} credits · ${formatUsd(bundle.price)}`}
      </PayButton>
    </section>
  );
}

const MODE_NOTES: Record<BillingMode, string | null> = {
  demo: 'Demo billing: no card is charged. Subscribing or buying adds the credits to your balance at once. This server is for trying Hookreel out, not for real purchases.',
  off: 'Purchases are turned off on this server. Ask an administrator for credits.',
  stripe: null,
};

export function CreditsPage() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const billing = useBillingState();
  const stats = usePublicStats();
  const mode = billing.data?.mode ?? null;
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [processingId, setProcessingId] = useState<string | null>(null);
  const [params, setParams] = useSearchParams();

  // Back from Stripe Checkout: the credits arrive with Stripe's confirmation (the webhook), usually within seconds.
  const checkoutResult = params.get('checkout');
  useEffect(() => {
    if (!checkoutResult || mode !== 'stripe') return;
    if (checkoutResult === 'success')
      toast.success('Payment received. Your credits are added as soon as Stripe confirms it.');
    else toast.info('Checkout cancelled. Nothing was charged.');
    refreshCredits(queryClient);
    setParams({}, { replace: true });
  }, [checkoutResult, mode, queryClient, setParams]);

  // Back from the billing portal: a plan change or cancellation arrives with Stripe's confirmation (the webhook).
  const portalReturn = params.get('portal') === 'return';
  useEffect(() => {
    if (!portalReturn || mode !== 'stripe') return;
    toast.info('Changes made in the billing portal show here as soon as Stripe confirms them.');
    refreshCredits(queryClient);
    setParams({}, { replace: true });
  }, [portalReturn, mode, queryClient, setParams]);

  const buy = async (id: string, body: CheckoutRequest, onDemoDone: () => void) => {
    setProcessingId(id);
    try {
      const url = await startCheckout(body);
      if (mode === 'stripe') {
        window.location.assign(url);
        return;
      }
      onDemoDone();
      refreshCredits(queryClient);
    } catch (e) {
      toast.error(errorDetail(e, MESSAGES.payments.failed));
    } finally {
      setProcessingId(null);
    }
  };

  const onSubscribe = (plan: Plan) => {
    const p = planPricing(plan, period);
    toast.info(MESSAGES.payments.processing(plan.credits, p.price, p.period));
    void buy(plan.id, { plan: plan.id, interval: p.period }, () =>
      toast.success(MESSAGES.payments.subscribed(plan.name), { description: 'Demo: no card was charged.' }),
    );
  };
  const onBuyBundle = (bundle: CreditBundle) =>
    void buy(bundle.id, { bundle: bundle.id }, () =>
      toast.success(`${bundle.credits} credits added to your balance.`, { description: 'Demo: no card was charged.' }),
    );

  const openPortal = async () => {
    setProcessingId('portal');
    try {
      window.location.assign(RedirectUrl.parse(await api.post('/billing/portal')).url);
    } catch (e) {
      toast.error(errorDetail(e, MESSAGES.payments.failed));
      setProcessingId(null);
    }
  };

  const canBuy = mode === 'demo' || mode === 'stripe';
  // The server says why this account may not buy (unverified address); the buttons stay visible but disabled.
  const blocked = canBuy ? (billing.data?.purchase_blocked ?? null) : null;
  const blockedId = blocked ? 'purchase-blocked-reason' : undefined;
  const sub = billing.data?.subscription;
  const note = mode ? MODE_NOTES[mode] : null;

  return (
    <Page className="max-w-6xl">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose your plan</h1>
        <p className="mt-3 text-muted-foreground">
          Credits power every video you generate. Pick the plan that fits how fast you test.
        </p>
        <div className="mt-4 flex flex-wrap items-center justify-center gap-2">
          <p className="inline-flex items-center gap-2 rounded-full border bg-card px-4 py-1.5 text-sm shadow-xs">
            <CoinsIcon className="size-4 text-primary" aria-hidden="true" />
            Current balance:{' '}
            <span className="font-mono font-semibold tabular-nums">{formatCredits(user?.credits)}</span> credits
          </p>
          <ButtonLink to="/credits/history" variant="ghost" size="sm">
            <HistoryIcon aria-hidden="true" /> Credit history
          </ButtonLink>
        </div>
        {mode === 'demo' ? (
          <div
            role="status"
            data-testid="demo-money-banner"
            className="mx-auto mt-4 flex max-w-xl items-start gap-3 rounded-lg border border-amber-400 bg-amber-50 px-4 py-3 text-left text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200"
          >
            <TriangleAlertIcon className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
            <div>
              <p className="font-semibold">Demo money is on</p>
              <p data-testid="billing-mode-note">{note}</p>
            </div>
          </div>
        ) : note ? (
          <p
            data-testid="billing-mode-note"
            className="mx-auto mt-4 max-w-xl rounded-lg border border-dashed bg-muted/40 px-4 py-2 text-sm text-muted-foreground"
          >
            {note}
          </p>
        ) : null}
        {blocked ? (
          <p
            id={blockedId}
            data-testid="purchase-blocked"
            className="mx-auto mt-4 flex max-w-xl items-start gap-2 rounded-lg border bg-card px-4 py-2 text-left text-sm"
          >
            <LockIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
            {blocked}
          </p>
        ) : null}
        {sub && sub.status !== 'canceled' ? (
          <p className="mt-4 text-sm">
            Your plan: <span className="font-semibold">{PLANS.find((p) => p.id === sub.plan)?.name}</span> (
            {sub.interval === 'month' ? 'monthly' : 'yearly'}
            {sub.cancel_at_period_end ? ', ends with this period' : ''})
            {billing.data?.portal ? (
              <Button
                variant="link"
                className="h-auto px-1"
                disabled={processingId !== null}
                onClick={() => void openPortal()}
              >
                Manage billing <ExternalLinkIcon aria-hidden="true" />
              </Button>
            ) : null}
          </p>
        ) : billing.data?.portal ? (
          <Button variant="link" className="mt-2" disabled={processingId !== null} onClick={() => void openPortal()}>
            Billing history and invoices <ExternalLinkIcon aria-hidden="true" />
          </Button>
        ) : null}
        <div className="mt-8 flex justify-center">
          <BillingToggle value={period} onChange={setPeriod} />
        </div>
      </div>

      <div className="mt-12 grid gap-6 lg:grid-cols-3">
        {PLANS.map((plan) => (
          <PlanCard
            key={plan.id}
            plan={plan}
            period={period}
            processing={processingId === plan.id}
            disabled={processingId !== null || mode === null || blocked !== null}
            describedBy={blockedId}
            onSubscribe={canBuy || mode === null ? onSubscribe : null}
            current={
              !!sub &&
              sub.status !== 'canceled' &&
              sub.plan === plan.id &&
              sub.interval === planPricing(plan, period).period
            }
            change={
              mode === 'stripe' && sub && sub.status !== 'canceled' && billing.data?.portal
                ? {
                    current: sub.plan === plan.id && sub.interval === planPricing(plan, period).period,
                    open: () => void openPortal(),
                  }
                : null
            }
          />
        ))}
      </div>

      {canBuy ? (
        <section aria-labelledby="credit-bundles" className="mx-auto mt-16 max-w-4xl">
          <h2 id="credit-bundles" className="flex items-center justify-center gap-2 text-2xl font-bold tracking-tight">
            <PackageIcon className="size-5 text-primary" aria-hidden="true" /> One-time credit bundles
          </h2>
          <p className="mt-2 text-center text-sm text-muted-foreground">
            No subscription needed. Bundle credits never expire.
          </p>
          <div className="mt-6 grid gap-4 sm:grid-cols-3">
            {CREDIT_BUNDLES.map((b) => (
              <BundleCard
                key={b.id}
                bundle={b}
                processing={processingId === b.id}
                disabled={processingId !== null || blocked !== null}
                describedBy={blockedId}
                onBuy={onBuyBundle}
              />
            ))}
          </div>
        </section>
      ) : null}

      <section aria-labelledby="credits-faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="credits-faq" className="mb-4 text-center text-2xl font-bold tracking-tight">
          Frequently asked questions
        </h2>
        <Accordion type="single" collapsible defaultValue="item-1" className="rounded-xl border bg-card px-6">
          {faqItems(stats.data).map((item, i) => (
            <AccordionItem key={item.q} value={`item-${i + 1}`}>
              <AccordionTrigger className="text-base">{item.q}</AccordionTrigger>
              <AccordionContent>{item.a}</AccordionContent>
            </AccordionItem>
          ))}
        </Accordion>
      </section>
    </Page>
  );
}

/** A button that starts a payment: a second click of a double click is dropped, and it says so while processing. */
function PayButton({
  processing,
  describedBy,
  onPay,
  children,
  ...button
}: {
  processing: boolean;
  describedBy?: string;
  onPay: () => void;
  children: ReactNode;
} & Pick<ComponentProps<typeof Button>, 'className' | 'variant' | 'size' | 'disabled'>) {
  return (
    <Button
      {...button}
      aria-describedby={describedBy}
      onClick={(e) => {
        if (!isRepeatClick(e)) onPay();
      }}
    >
      {processing ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
      {processing ? 'Processing...' : children}
    </Button>
  );
}
