import { Capabilities, PriceList } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/capabilities — which stages run on providers here, and whether Realistic can be offered. */
export function useCapabilities() {
  return useQuery({
    queryKey: queryKeys.capabilities(),
    queryFn: async () => Capabilities.parse(await api.get('/capabilities')),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/credits/prices — the price list the server holds credits by (Realistic's per-second figure too). */
export function usePriceList() {
  return useQuery({
    queryKey: queryKeys.prices(),
    queryFn: async () => PriceList.parse(await api.get('/credits/prices')),
    staleTime: 5 * 60_000,
  });
}
