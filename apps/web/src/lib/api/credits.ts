import { BillingState, LedgerPage, RefundRequest, type RefundRequest as RefundRequestType } from '@hookreel/contracts';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/credits/ledger?cursor= — the signed-in user's ledger, newest first, a page at a time. */
export function useLedger() {
  return useInfiniteQuery({
    queryKey: queryKeys.credits.ledger(),
    queryFn: async ({ pageParam }) =>
      LedgerPage.parse(await api.get('/credits/ledger', { query: { cursor: pageParam ?? undefined } })),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor,
  });
}

/** GET /api/billing/subscription — billing mode, subscription and whether the portal opens. */
export function useBillingState() {
  return useQuery({
    queryKey: queryKeys.credits.billing(),
    queryFn: async () => BillingState.parse(await api.get('/billing/subscription')),
  });
}

/** GET /api/credits/refunds — the user's refund requests. */
export function useOwnRefunds() {
  return useQuery({
    queryKey: queryKeys.credits.refunds(),
    queryFn: async () => z.array(RefundRequest).parse(await api.get('/credits/refunds')),
  });
}

/** POST /api/jobs/{id}/refund-request {reason} — "Report a problem" on a finished video. */
export function useRequestRefund() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ jobId, reason }: { jobId: number; reason: string }): Promise<RefundRequestType> =>
      RefundRequest.parse(await api.post(`/jobs/${jobId}/refund-request`, { reason })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.credits.all }),
  });
}

/** After anything that moves credits: the balance in the sidebar and the history are stale. */
export function refreshCredits(queryClient: ReturnType<typeof useQueryClient>): void {
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
  void queryClient.invalidateQueries({ queryKey: queryKeys.credits.all });
}
