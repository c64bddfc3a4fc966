import { ExternalLinkIcon } from 'lucide-react';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { staticUrl } from '@/lib/urls';

/**
 * The finished video's contact sheet (six frames, 3x2) on the job's own page: what a card shows on hover, here for
 * every pointer, a phone included. Opens full size in a new tab. Nothing when the video has none (older renders).
 */
export function ContactSheetCard({ url, label }: { url: string | null | undefined; label: string }) {
  const src = staticUrl(url);
  if (!src) return null;
  return (
    <Card data-testid="contact-sheet-card">
      <CardHeader className="flex flex-row items-center justify-between gap-2">
        <CardTitle className="text-base">Frames at a glance</CardTitle>
        <a
          href={src}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
        >
          Open full size <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
        </a>
      </CardHeader>
      <CardContent>
        <img
          src={src}
          alt={`Contact sheet: 6 frames of ${label}`}
          loading="lazy"
          className="w-full rounded-lg bg-zinc-950 object-contain"
          data-testid="contact-sheet"
        />
      </CardContent>
    </Card>
  );
}
