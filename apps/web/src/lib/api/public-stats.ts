import { PublicStats } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET /api/stats: measured render time and catalogue size (public, so the landing page can quote it). */
export const getPublicStats = async (): Promise<PublicStats> => PublicStats.parse(await api.get('/stats'));

export function usePublicStats() {
  return useQuery({ queryKey: ['public-stats'], queryFn: getPublicStats, staleTime: 60_000, retry: false });
}

/** '14 s' / '2 min': a measured duration as people say it. */
export function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  return `${Math.round(seconds / 60)} min`;
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
