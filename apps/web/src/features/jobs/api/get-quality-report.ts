import { QualityReport } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/{report_url}: the quality report the engine stored beside a finished video (a JSON file). */
export const getQualityReport = async (reportUrl: string, signal?: AbortSignal): Promise<QualityReport> =>
  QualityReport.parse(await api.get(`/${reportUrl.replace(/^\/+/, '')}`, { signal }));

/** A finished job's report does not change, so it is fetched once. */
export function useQualityReport(reportUrl: string | null) {
  return useQuery({
    queryKey: queryKeys.jobs.report(reportUrl ?? ''),
    queryFn: ({ signal }) => getQualityReport(reportUrl as string, signal),
    enabled: Boolean(reportUrl),
    staleTime: Infinity,
  });
}
