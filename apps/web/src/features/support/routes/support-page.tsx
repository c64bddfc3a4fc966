import {
  BookOpenIcon,
  CoinsIcon,
  LayersIcon,
  LifeBuoyIcon,
  MailIcon,
  PackageOpenIcon,
  PlayCircleIcon,
  type LucideIcon,
} from 'lucide-react';
import { ButtonLink } from '@/components/button-link';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { config } from '@/config';

const DOCS: { icon: LucideIcon; title: string; text: string; to: string; cta: string }[] = [
  {
    icon: PlayCircleIcon,
    title: 'Getting started',
    text: 'Create your first video: upload a product photo, pick AI actors, write a script and generate.',
    to: '/new-video',
    cta: 'Create a video',
  },
  {
    icon: PackageOpenIcon,
    title: 'Product in hand',
    text: 'Place your product in each actor’s hands, adjust position and size, then generate the videos.',
    to: '/projects',
    cta: 'Open projects',
  },
  {
    icon: LayersIcon,
    title: 'Hook packs',
    text: 'Describe character types, write one hook and get a pack of short hook videos to test openers.',
    to: '/hook-packs',
    cta: 'View hook packs',
  },
  {
    icon: CoinsIcon,
    title: 'Credits and billing',
    text: 'How credits are spent on videos, characters and previews, and how plans and rollover work.',
    to: '/credits',
    cta: 'See plans',
  },
];

const FAQ: { q: string; a: string }[] = [
  {
    q: 'Which product photos work best?',
    a: 'A product facing forward on a clean background, well lit, with no hands or people. PNG, JPG or WEBP up to 10MB. A PNG or WEBP with a transparent background is used as it is, with no background removal.',
  },
  {
    q: 'How do I follow my videos?',
    a: 'Open Generated videos in the sidebar. Each job shows its status and progress and updates on its own.',
  },
  {
    q: 'Can I get an e-mail when videos are ready?',
    a: 'Yes. Turn on Email Notifications in Settings, or use Notify Me on the Generated videos screen.',
  },
  {
    q: 'What happens if a generation fails?',
    a: 'Credits held for a failed or cancelled job are released back to your balance automatically.',
  },
  {
    q: 'How long can my script be?',
    a: 'Scripts can be up to 2000 characters. Shorter scripts make punchier ads.',
  },
  {
    q: 'How do I delete my account?',
    a: 'Go to Settings → Danger Zone → Delete Account. This removes your projects, videos and credits.',
  },
];

export function SupportPage() {
  const mailto = `mailto:${config.supportEmail}?subject=${encodeURIComponent('Hookreel support request')}`;
  return (
    <Page>
      <PageHeader title="Support" description="Guides, answers and a direct line to our team." />

      <section aria-labelledby="docs-title">
        <h2 id="docs-title" className="mb-4 flex items-center gap-2 text-lg font-semibold">
          <BookOpenIcon className="size-5 text-primary" aria-hidden="true" />
          Documentation
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {DOCS.map((d) => (
            <Card key={d.title} className="gap-4">
              <CardHeader>
                <span className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
                  <d.icon className="size-5" aria-hidden="true" />
                </span>
                <CardTitle className="text-base">{d.title}</CardTitle>
                <CardDescription>{d.text}</CardDescription>
              </CardHeader>
              <CardContent className="mt-auto">
                <ButtonLink to={d.to} variant="link" className="h-auto px-0">
                  {d.cta} →
                </ButtonLink>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>

      <section aria-labelledby="contact-title" className="mt-10">
        <div className="flex flex-col items-start justify-between gap-6 rounded-2xl border bg-gradient-to-br from-primary/10 via-background to-background p-6 sm:flex-row sm:items-center sm:p-8">
          <div className="flex items-start gap-4">
            <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-brand-gradient text-white shadow">
              <LifeBuoyIcon className="size-6" aria-hidden="true" />
            </span>
            <div>
              <h2 id="contact-title" className="text-lg font-semibold">
                Contact support
              </h2>
              <p className="text-muted-foreground">
                Can’t find what you need? E-mail us at{' '}
                <a href={mailto} className="font-medium text-primary underline-offset-4 hover:underline">
                  {config.supportEmail}
                </a>{' '}
                and we’ll get back to you within one business day.
              </p>
            </div>
          </div>
          <Button asChild size="lg">
            <a href={mailto}>
              <MailIcon aria-hidden="true" />
              Email support
            </a>
          </Button>
        </div>
      </section>

      <section aria-labelledby="faq-title" className="mt-10">
        <h2 id="faq-title" className="mb-4 text-lg font-semibold">
          Frequently asked questions
        </h2>
        <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
          {FAQ.map((f) => (
            <Card key={f.q} className="gap-2 py-5">
              <CardHeader className="px-5">
                <CardTitle className="text-base">{f.q}</CardTitle>
              </CardHeader>
              <CardContent className="px-5 text-sm text-muted-foreground">{f.a}</CardContent>
            </Card>
          ))}
        </div>
      </section>
    </Page>
  );
}
