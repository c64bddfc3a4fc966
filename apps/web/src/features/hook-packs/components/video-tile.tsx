import type { Job } from '@hookreel/contracts';
import { DownloadIcon } from 'lucide-react';
import { AspectList } from '@/components/aspect-picker';
import { Button } from '@/components/ui/button';
import { videoUrl } from '@/lib/urls';

/** A playable 9:16 video of the pack, with an optional per-file download link. */
export function VideoTile({ job, index, downloadable = false }: { job: Job; index: number; downloadable?: boolean }) {
  const src = videoUrl(job.video_url);
  const n = job.variant_index ?? index + 1;
  const title = `Video #${n}`;
  const download = videoUrl(job.download_url) ?? src;
  return (
    <figure className="overflow-hidden rounded-xl border bg-card" data-testid="video-tile">
      <div className="aspect-[9/16] bg-black">
        {src ? (
          <video
            src={src}
            poster={videoUrl(job.poster_url)}
            controls
            playsInline
            preload="metadata"
            className="size-full object-contain"
            aria-label={title}
          />
        ) : null}
      </div>
      <figcaption className="flex items-center justify-between gap-2 p-3 text-sm font-medium">
        <span className="min-w-0">
          <span className="block">
            {title}
            {job.variant_id ? (
              <span className="ml-1 font-mono text-xs font-semibold text-primary">{job.variant_id}</span>
            ) : null}
          </span>
          {job.actor_name ? (
            <span className="block truncate text-xs font-normal text-muted-foreground">{job.actor_name}</span>
          ) : null}
          {job.aspects.length > 1 ? <AspectList aspects={job.aspects.map((a) => a.aspect)} /> : null}
        </span>
        {downloadable && download ? (
          <Button asChild size="sm" variant="outline">
            <a href={download} download aria-label={`Download ${title}`}>
              <DownloadIcon aria-hidden="true" /> MP4
            </a>
          </Button>
        ) : null}
      </figcaption>
    </figure>
  );
}
