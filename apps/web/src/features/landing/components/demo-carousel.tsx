import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';
import samples from '../../../../public/landing-samples/samples.json';

/**
 * Real Draft videos from today's engine (`npm run landing-samples` renders them into public/landing-samples), so
 * the page shows what a free video looks like instead of placeholder slides (decision 117). They play with the
 * browser's own controls, so they work before the app has loaded, and download only when played.
 */
export const LANDING_SAMPLES: ReadonlyArray<{ id: string; title: string; hook: string; durationSec: number }> = samples;

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
        aria-label="Sample videos made by Hookreel's Draft engine"
        tabIndex={0}
        className="mx-auto flex w-fit max-w-full snap-x snap-mandatory gap-5 overflow-x-auto scroll-smooth px-1 pb-4 outline-none [scrollbar-width:none] focus-visible:ring-2 focus-visible:ring-ring [&::-webkit-scrollbar]:hidden"
      >
        {LANDING_SAMPLES.map((s, i) => (
          <figure
            key={s.id}
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${LANDING_SAMPLES.length}: ${s.title}`}
            className="w-56 shrink-0 snap-start sm:w-64"
          >
            <video
              className="aspect-[9/16] w-full rounded-2xl bg-black object-cover shadow-lg"
              src={`/landing-samples/${s.id}.mp4`}
              poster={`/landing-samples/${s.id}.jpg`}
              controls
              playsInline
              preload="none"
              aria-label={`${s.title}: “${s.hook}”`}
            />
            <figcaption className="mt-3 text-sm">
              <span className="font-medium">{s.title}</span>
              <span className="block text-muted-foreground">
                Draft video · {s.durationSec.toFixed(0)} s · rendered by the engine, unedited
              </span>
            </figcaption>
          </figure>
        ))}
      </div>
      <div className="mt-4 flex justify-center gap-2">
        <Button variant="outline" size="icon" aria-label="Previous sample" onClick={() => scrollBy(-1)}>
          <ChevronLeftIcon />
        </Button>
        <Button variant="outline" size="icon" aria-label="Next sample" onClick={() => scrollBy(1)}>
          <ChevronRightIcon />
        </Button>
      </div>
    </div>
  );
}
