import { formatDuration, PUBLIC_STATS_ELEMENT_ID, PublicStats } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/stats: measured render time and catalogue size (public, so the landing page can quote it). */
export const getPublicStats = async (): Promise<PublicStats> => PublicStats.parse(await api.get('/stats'));

/**
 * The figures the server wrote into the prerendered landing page (decision 115), so the app's first render shows
 * the same text as the markup it takes over; none when the page came without them (or at build time, in Node).
 */
function embeddedStats(): PublicStats | undefined {
  if (typeof document === 'undefined') return undefined;
  const text = document.getElementById(PUBLIC_STATS_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    const parsed = PublicStats.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined; // not JSON: fetch the figures as if none had come with the page
  }
}

export function usePublicStats() {
  return useQuery({
    queryKey: ['public-stats'],
    queryFn: getPublicStats,
    initialData: embeddedStats,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * The answer to "how long does it take?", from what this installation measured; before the first video is
 * rendered there is no figure to quote, so it says so instead of promising one.
 */
export function deliveryAnswer(stats: PublicStats | undefined): string {
  if (!stats || stats.seconds_per_video === null) {
    return 'Each video renders in the background as soon as you start it, and you can follow it live under Generated videos. Once this studio has rendered its first videos, this answer shows the measured time.';
  }
  return `Recent videos took about ${formatDuration(stats.seconds_per_video)} each to render here (median of the last ${stats.videos_measured}), plus any wait for videos queued ahead of yours. Every job shows its measured time left live under Generated videos.`;
}
