import { formatCredits, MESSAGES, PLANS, TIMINGS, type Plan } from '@hookreel/contracts';
import { CheckIcon, CoinsIcon, Loader2Icon, SparklesIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Page } from '@/components/layout/page';
import { BillingToggle } from '@/components/pricing/billing-toggle';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { formatUsd, planPricing, type BillingPeriod } from '@/lib/pricing';
import { cn, sleep } from '@/lib/utils';

const FAQ: { q: string; a: string }[] = [
  {
    q: 'How fast will I receive my videos?',
    a: 'Videos arrive within 24 hours. Most are ready much sooner — you can follow every job live under Generated videos.',
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
}: {
  plan: Plan;
  period: BillingPeriod;
  processing: boolean;
  disabled: boolean;
  onSubscribe: (plan: Plan) => void;
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

      <Button
        className="mt-6 w-full"
        variant={plan.popular ? 'brand' : 'outline'}
        size="lg"
        disabled={disabled}
        onClick={() => onSubscribe(plan)}
      >
        {processing ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
        {processing ? 'Processing...' : 'Subscribe'}
      </Button>

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

export function CreditsPage() {
  const { user } = useAuth();
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const [processingId, setProcessingId] = useState<Plan['id'] | null>(null);

  const onSubscribe = async (plan: Plan) => {
    const p = planPricing(plan, period);
    setProcessingId(plan.id);
    try {
      toast.info(MESSAGES.payments.processing(plan.credits, p.price, p.period));
      // Payment is simulated: no server call (docs/product.md#other-screens).
      await sleep(TIMINGS.subscribeSimulationMs);
      toast.success(MESSAGES.payments.subscribed(plan.name));
    } catch {
      toast.error(MESSAGES.payments.failed);
    } finally {
      setProcessingId(null);
    }
  };

  return (
    <Page className="max-w-6xl">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Choose your plan</h1>
        <p className="mt-3 text-muted-foreground">
          Credits power every video you generate. Pick the plan that fits how fast you test.
        </p>
        <p className="mt-4 inline-flex items-center gap-2 rounded-full border bg-card px-4 py-1.5 text-sm shadow-xs">
          <CoinsIcon className="size-4 text-primary" aria-hidden="true" />
          Current balance: <span className="font-mono font-semibold tabular-nums">
            {formatCredits(user?.credits)}
          </span>{' '}
          credits
        </p>
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
            disabled={processingId !== null}
            onSubscribe={(pl) => void onSubscribe(pl)}
          />
        ))}
      </div>

      <section aria-labelledby="credits-faq" className="mx-auto mt-20 max-w-3xl">
        <h2 id="credits-faq" className="mb-4 text-center text-2xl font-bold tracking-tight">
          Frequently asked questions
        </h2>
        <Accordion type="single" collapsible defaultValue="item-1" className="rounded-xl border bg-card px-6">
          {FAQ.map((item, i) => (
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
