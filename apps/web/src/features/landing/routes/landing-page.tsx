import {
  DEFAULT_TRIAL_CREDITS,
  formatCredits,
  PLANS,
  PriceList,
  publicFigures,
  type PublicStats,
  TRIAL_INCLUDES,
  TRIAL_PROMISE,
} from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import {
  BadgeCheckIcon,
  CaptionsIcon,
  CheckIcon,
  GaugeIcon,
  LanguagesIcon,
  LayersIcon,
  PackageOpenIcon,
  PlayCircleIcon,
  SparklesIcon,
  UploadIcon,
  UsersRoundIcon,
  WandSparklesIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ButtonLink } from '@/components/button-link';
import { Logo } from '@/components/brand';
import { BillingToggle } from '@/components/pricing/billing-toggle';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { api } from '@/lib/api-client';
import { deliveryAnswer, usePublicStats } from '@/lib/api/public-stats';
import { formatUsd, planPricing, type BillingPeriod } from '@/lib/pricing';
import { cn } from '@/lib/utils';
import { DemoCarousel } from '../components/demo-carousel';

/**
 * What the free trial buys, in words that are true on this server: the default trial is a full hook pack and a
 * product-in-hand video (decision 102); an operator's other TRIAL_CREDITS is stated as an amount.
 */
function useTrialPromise(): { short: string; long: string } {
  const prices = useQuery({
    queryKey: ['credits', 'prices'],
    queryFn: async () => PriceList.parse(await api.get('/credits/prices')),
    staleTime: Infinity,
  });
  const trial = prices.data?.trial_credits ?? DEFAULT_TRIAL_CREDITS;
  if (trial === DEFAULT_TRIAL_CREDITS) {
    return {
      short: `Free trial: a ${TRIAL_INCLUDES.packVideos}-video hook pack + ${TRIAL_INCLUDES.productInHandVideos} product-in-hand video`,
      long: TRIAL_PROMISE,
    };
  }
  if (trial === 0) return { short: 'Pay as you go', long: 'Pick a plan or a credit bundle to start.' };
  return {
    short: `Free trial: ${formatCredits(trial)} credits`,
    long: `${formatCredits(trial)} free credits to start`,
  };
}

/** Open tools the studio is built on (true of every installation: see docs/architecture.md). */
const BUILT_WITH = ['FFmpeg', 'Festival', 'eSpeak NG', 'DiceBear', 'ONNX Runtime', 'sharp'];

const STEPS = [
  {
    icon: UploadIcon,
    title: 'Upload your product',
    text: 'Drop in one product photo. We cut it out and detect its shape and category.',
  },
  {
    icon: UsersRoundIcon,
    title: 'Choose AI actors',
    text: 'Pick AI actors from the library or describe the creators your audience trusts.',
  },
  {
    icon: PlayCircleIcon,
    title: 'Generate and test',
    text: 'Get a pack of vertical videos ready for TikTok, Reels and Shorts — then test what wins.',
  },
];

const FEATURES = [
  {
    icon: PackageOpenIcon,
    title: 'Product in hand',
    text: 'Actors hold and present your real product, placed exactly where you want it.',
  },
  {
    icon: LayersIcon,
    title: 'Hook packs',
    text: 'One hook, many faces: a pack of 12 short hook videos to find the opener that converts.',
  },
  {
    icon: LanguagesIcon,
    title: 'Languages and accents',
    text: 'English, Spanish, French, German, Portuguese and Dutch with natural accents.',
  },
  {
    icon: CaptionsIcon,
    title: 'Auto captions',
    text: 'Word-by-word highlighted captions burned in, styled for social feeds.',
  },
  {
    icon: WandSparklesIcon,
    title: 'Script to video',
    text: 'Paste a script and get a talking spokesperson video, no filming or editing.',
  },
  {
    icon: GaugeIcon,
    title: 'Built for testing',
    text: 'Twelve openers per product, each from a different proven hook angle, ready to A/B test.',
  },
];

const faq = (stats: PublicStats | undefined) => [
  {
    q: 'How long does it take to get my videos?',
    a: deliveryAnswer(stats),
  },
  {
    q: 'Do I need to film anything?',
    a: 'No. Upload a product photo, pick AI actors and write a hook or script — Hookreel does the rest.',
  },
  {
    q: 'Can I use the videos in paid ads?',
    a: 'Yes. Videos generated on a paid plan are yours to use in ads on any platform.',
  },
  {
    q: 'Which languages are supported?',
    a: 'English, Spanish, French, German, Portuguese and Dutch, with several accents.',
  },
  {
    q: 'Is there a free trial?',
    a: 'Yes. See below for what it includes; it is given once per e-mail address, no credit card required.',
  },
  {
    q: 'Is Hookreel open source?',
    a: 'Yes. The whole studio is AGPL-3.0: run it on your own machine with one command, offline, with no API keys.',
  },
];

function scrollToDemo() {
  const el = document.getElementById('demo');
  if (!el) return;
  el.scrollIntoView({ behavior: 'smooth', block: 'start' });
  el.focus({ preventScroll: true });
}

function SectionHeading({ eyebrow, title, text, id }: { eyebrow: string; title: string; text?: string; id: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
        {title}
      </h2>
      {text ? <p className="mt-4 text-lg text-muted-foreground">{text}</p> : null}
    </div>
  );
}

export function LandingPage() {
  const [period, setPeriod] = useState<BillingPeriod>('monthly');
  const trial = useTrialPromise();
  const stats = usePublicStats();

  return (
    <div className="min-h-svh bg-background">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b bg-background/80 backdrop-blur">
        <nav
          aria-label="Main"
          className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8"
        >
          <Link to="/landing" className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <Logo />
          </Link>
          <div className="hidden items-center gap-6 text-sm font-medium text-muted-foreground md:flex">
            <a href="#how-it-works" className="hover:text-foreground">
              How it works
            </a>
            <a href="#features" className="hover:text-foreground">
              Features
            </a>
            <a href="#pricing" className="hover:text-foreground">
              Pricing
            </a>
            <a href="#faq" className="hover:text-foreground">
              FAQ
            </a>
          </div>
          <div className="flex items-center gap-2">
            <ButtonLink to="/login" variant="ghost" size="sm">
              Sign in
            </ButtonLink>
            <ButtonLink to="/register" variant="brand" size="sm">
              Start Free
            </ButtonLink>
          </div>
        </nav>
      </header>

      <main id="main">
        {/* Hero */}
        <section aria-labelledby="hero-title" className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-48 left-1/2 h-[36rem] w-[64rem] -translate-x-1/2 rounded-full bg-brand-gradient opacity-15 blur-3xl"
          />
          <div className="relative mx-auto max-w-7xl px-4 pt-20 pb-16 text-center sm:px-6 lg:px-8 lg:pt-28">
            <Badge variant="outline" className="mb-6 gap-1.5 bg-background/60 px-3 py-1 text-sm backdrop-blur">
              <SparklesIcon className="size-3.5 text-primary" aria-hidden="true" />
              AI UGC video ads for brands and online sellers
            </Badge>
            <h1
              id="hero-title"
              className="mx-auto max-w-4xl text-4xl font-extrabold tracking-tight text-balance sm:text-6xl"
            >
              Turn one product photo into <span className="text-gradient">scroll-stopping UGC ads</span>
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg text-pretty text-muted-foreground">
              AI actors hold your product, speak your hook and deliver ready-to-run vertical videos. Test dozens of
              variations without booking a single creator.
            </p>
            <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
              <ButtonLink to="/register" variant="brand" size="lg" className="w-full sm:w-auto">
                Start Free Trial
              </ButtonLink>
              <Button variant="outline" size="lg" className="w-full sm:w-auto" onClick={scrollToDemo}>
                <PlayCircleIcon aria-hidden="true" />
                Watch Demo
              </Button>
            </div>
            <p className="mt-4 text-sm text-muted-foreground">{trial.short} · no credit card required</p>
          </div>

          {/* Built with: open tools, named truthfully instead of invented customer logos */}
          <div className="relative mx-auto max-w-6xl px-4 pb-12 sm:px-6 lg:px-8">
            <p className="text-center text-sm font-medium text-muted-foreground">
              Open source, built on open tools — runs on your own machine
            </p>
            <ul className="mt-6 grid grid-cols-2 items-center gap-x-8 gap-y-4 text-center sm:grid-cols-3 lg:grid-cols-6">
              {BUILT_WITH.map((b) => (
                <li key={b} className="text-lg font-semibold tracking-tight text-muted-foreground/70">
                  {b}
                </li>
              ))}
            </ul>
          </div>
        </section>

        {/* Demo */}
        <section
          id="demo"
          tabIndex={-1}
          aria-labelledby="demo-title"
          className="scroll-mt-20 bg-muted/40 py-20 outline-none"
        >
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading
              id="demo-title"
              eyebrow="Demo"
              title="See what a free Draft video looks like"
              text="Unedited videos from Hookreel's own engine: an illustrated actor holding the product, the hook on screen, word-by-word captions and a call to action. Press play."
            />
            <div className="mt-12">
              <DemoCarousel />
            </div>
          </div>
        </section>

        {/* Stats */}
        <section aria-label="Hookreel in numbers" className="border-y">
          <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-14 sm:px-6 md:grid-cols-5 lg:px-8">
            {/* data-figure marks the text the server fills in from its own figures before sending the page. */}
            {publicFigures(stats.data).map((s) => (
              <div key={s.key} className="flex flex-col-reverse text-center">
                <dt className="mt-1 text-sm text-muted-foreground" data-figure-label={s.key}>
                  {s.label}
                </dt>
                <dd className="text-gradient text-4xl font-extrabold tracking-tight" data-figure={s.key}>
                  {s.value}
                </dd>
              </div>
            ))}
          </dl>
        </section>

        {/* How it works */}
        <section id="how-it-works" aria-labelledby="how-title" className="scroll-mt-20 py-24">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading id="how-title" eyebrow="How it works" title="From product photo to ad in 3 steps" />
            <ol className="mt-14 grid gap-6 md:grid-cols-3">
              {STEPS.map((s, i) => (
                <li key={s.title} className="relative rounded-2xl border bg-card p-6 shadow-sm">
                  <span className="absolute top-6 right-6 text-5xl font-black text-muted/80" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="flex size-11 items-center justify-center rounded-xl bg-primary/10 text-primary">
                    <s.icon className="size-5" aria-hidden="true" />
                  </span>
                  <h3 className="mt-5 text-lg font-semibold">
                    <span className="sr-only">Step {i + 1}: </span>
                    {s.title}
                  </h3>
                  <p className="mt-2 text-muted-foreground">{s.text}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        {/* Features */}
        <section id="features" aria-labelledby="features-title" className="scroll-mt-20 bg-muted/40 py-24">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading
              id="features-title"
              eyebrow="Features"
              title="Everything you need to test creative at scale"
            />
            <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {FEATURES.map((f) => (
                <li
                  key={f.title}
                  className="rounded-2xl border bg-card p-6 shadow-sm transition-shadow hover:shadow-md"
                >
                  <f.icon className="size-6 text-primary" aria-hidden="true" />
                  <h3 className="mt-4 font-semibold">{f.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{f.text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        {/* Open source: what a team can check for itself, in place of invented testimonials */}
        <section aria-labelledby="open-title" className="py-24">
          <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
            <SectionHeading id="open-title" eyebrow="Open source" title="Yours to run, read and change" />
            <ul className="mt-12 grid gap-6 md:grid-cols-3">
              {[
                [
                  'Self-host in one command',
                  'Draft videos render locally: no keys, no per-video fees to a vendor. Realistic mode uses the providers you configure.',
                ],
                ['Measured, not promised', 'Render times on this page and in the app come from the videos made here.'],
                ['AGPL-3.0', 'Read every line that touches your product photos and scripts.'],
              ].map(([title, text]) => (
                <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
                  <BadgeCheckIcon className="size-6 text-primary" aria-hidden="true" />
                  <h3 className="mt-4 font-semibold">{title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{text}</p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        {/* Pricing */}
        <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 bg-muted/40 py-24">
          <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
            <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple plans that scale with you" />
            <div className="mt-8 flex justify-center">
              <BillingToggle value={period} onChange={setPeriod} />
            </div>
            <div className="mt-12 grid gap-6 lg:grid-cols-3">
              {PLANS.map((plan) => {
                const p = planPricing(plan, period);
                return (
                  <section
                    key={plan.id}
                    aria-labelledby={`landing-plan-${plan.id}`}
                    className={cn(
                      'relative flex flex-col rounded-2xl border bg-card p-8 shadow-sm',
                      plan.popular && 'border-primary shadow-lg ring-1 ring-primary',
                    )}
                  >
                    {plan.popular ? (
                      <Badge variant="brand" className="absolute -top-3 left-1/2 -translate-x-1/2 px-3 py-1">
                        Most Popular
                      </Badge>
                    ) : null}
                    <h3 id={`landing-plan-${plan.id}`} className="text-lg font-semibold">
                      {plan.landingName}
                    </h3>
                    <p className="mt-1 text-sm text-muted-foreground">{plan.videos} videos per month</p>
                    <p className="mt-6 flex items-baseline gap-1">
                      <span className="text-4xl font-bold tracking-tight">{formatUsd(p.price)}</span>
                      <span className="text-muted-foreground">/{p.period}</span>
                    </p>
                    <p className="mt-1 min-h-5 text-sm text-muted-foreground">
                      {p.perMonth !== null
                        ? `${formatUsd(p.perMonth)}/month billed yearly · save ${formatUsd(p.savings ?? 0)}`
                        : `$${p.perVideo} per video`}
                    </p>
                    <ButtonLink to="/register" className="mt-6" variant={plan.popular ? 'brand' : 'outline'} size="lg">
                      Get started with {plan.landingName}
                    </ButtonLink>
                    <ul className="mt-6 space-y-2.5 text-sm">
                      {plan.features.map((f) => (
                        <li key={f} className="flex gap-2">
                          <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                          {f}
                        </li>
                      ))}
                    </ul>
                  </section>
                );
              })}
            </div>
          </div>
        </section>

        {/* FAQ */}
        <section id="faq" aria-labelledby="faq-title" className="scroll-mt-20 py-24">
          <div className="mx-auto max-w-3xl px-4 sm:px-6 lg:px-8">
            <SectionHeading id="faq-title" eyebrow="FAQ" title="Questions, answered" />
            <Accordion type="single" collapsible className="mt-10 rounded-2xl border bg-card px-6">
              {faq(stats.data)
                .map((f) =>
                  f.q === 'Is there a free trial?'
                    ? {
                        ...f,
                        a: `Yes — every new account gets ${trial.long}, once per e-mail address. No credit card required.`,
                      }
                    : f,
                )
                .map((f, i) => (
                  <AccordionItem key={f.q} value={`faq-${i}`}>
                    <AccordionTrigger className="text-base">{f.q}</AccordionTrigger>
                    <AccordionContent>{f.a}</AccordionContent>
                  </AccordionItem>
                ))}
            </Accordion>
          </div>
        </section>

        {/* Closing CTA */}
        <section aria-labelledby="cta-title" className="px-4 pb-24 sm:px-6 lg:px-8">
          <div className="relative mx-auto max-w-5xl overflow-hidden rounded-3xl bg-brand-gradient px-6 py-16 text-center text-white shadow-xl sm:px-12">
            <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Your next winning ad is one upload away
            </h2>
            <p className="mx-auto mt-4 max-w-xl text-lg text-white/85">
              Start with {trial.long} — no credit card required.
            </p>
            <ButtonLink to="/register" size="lg" className="mt-8 bg-white text-zinc-900 hover:bg-white/90">
              <BadgeCheckIcon aria-hidden="true" />
              Start Free
            </ButtonLink>
          </div>
        </section>
      </main>

      <footer className="border-t">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:px-6 lg:px-8">
          <Logo textClassName="text-base text-foreground" />
          <p>© {new Date().getFullYear()} Hookreel · Open source under AGPL-3.0</p>
        </div>
      </footer>
    </div>
  );
}
