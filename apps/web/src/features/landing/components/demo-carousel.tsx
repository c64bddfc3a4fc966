import { LANDING_CLAIMS } from '@hookreel/contracts';
import { ChevronLeftIcon, ChevronRightIcon, PlayIcon } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';

/** Static placeholder slides (docs/product.md#what-it-does: the landing page's carousel is static). */
const SLIDES = [
  {
    title: `Full product demo · ${LANDING_CLAIMS.demoMinutes} min`,
    tone: 'from-violet-500 to-fuchsia-500',
    hook: 'Watch how it works',
  },
  {
    title: 'Skincare · Product in hand',
    tone: 'from-rose-400 to-orange-300',
    hook: '“I stopped buying serums after this…”',
  },
  { title: 'Supplements · Hook pack', tone: 'from-emerald-400 to-teal-500', hook: '“POV: your 3pm slump is gone”' },
  {
    title: 'Coffee · AI spokesperson',
    tone: 'from-amber-500 to-rose-500',
    hook: '“This is the only mug I travel with”',
  },
  { title: 'Fitness · Lip sync', tone: 'from-sky-400 to-indigo-500', hook: '“3 reasons my gym bag changed”' },
];

export function DemoCarousel() {
  const track = useRef<HTMLDivElement>(null);
  const scrollBy = (dir: 1 | -1) => {
    const el = track.current;
    if (el) el.scrollBy({ left: dir * el.clientWidth * 0.8, behavior: 'smooth' });
  };

  return (
    <div className="relative">
      <div
        ref={track}
        role="region"
        aria-roledescription="carousel"
        aria-label={`Demo videos, including a ${LANDING_CLAIMS.demoMinutes}-minute product demo`}
        tabIndex={0}
        className="flex snap-x snap-mandatory gap-5 overflow-x-auto scroll-smooth px-1 pb-4 outline-none [scrollbar-width:none] focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-scrollbar]:hidden"
      >
        {SLIDES.map((s, i) => (
          <figure
            key={s.title}
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${SLIDES.length}: ${s.title}`}
            className={`relative aspect-[9/16] w-56 shrink-0 snap-start overflow-hidden rounded-2xl bg-gradient-to-br ${s.tone} shadow-lg sm:w-64 ${i === 0 ? 'sm:w-80' : ''}`}
          >
            <div className="absolute inset-0 bg-[radial-gradient(circle_at_30%_20%,rgba(255,255,255,0.35),transparent_60%)]" />
            <div className="absolute inset-x-4 top-4 rounded-lg bg-black/35 px-3 py-2 text-sm font-semibold text-white backdrop-blur">
              {s.hook}
            </div>
            <div className="absolute inset-0 flex items-center justify-center">
              <span className="flex size-14 items-center justify-center rounded-full bg-white/90 text-zinc-900 shadow-xl">
                <PlayIcon className="ml-1 size-6 fill-current" aria-hidden="true" />
              </span>
            </div>
            <figcaption className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/60 to-transparent p-4 text-sm font-medium text-white">
              {s.title}
            </figcaption>
          </figure>
        ))}
      </div>
      <div className="mt-4 flex justify-center gap-2">
        <Button variant="outline" size="icon" aria-label="Previous demo" onClick={() => scrollBy(-1)}>
          <ChevronLeftIcon />
        </Button>
        <Button variant="outline" size="icon" aria-label="Next demo" onClick={() => scrollBy(1)}>
          <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}
