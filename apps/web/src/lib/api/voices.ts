import { VoiceList, type Voice } from '@hookreel/contracts';
import { useQuery } from '@tanstack/react-query';
import { config } from '@/config';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/voices: what this server can speak with. The list changes only when the operator adds voice files. */
export function useVoices() {
  return useQuery({
    queryKey: queryKeys.voices(),
    queryFn: async () => VoiceList.parse(await api.get('/voices')).voices,
    staleTime: 10 * 60_000,
  });
}

/** A sample's address as the browser plays it: the server names it under /api, which may live elsewhere. */
export const voiceSampleSrc = (voice: Pick<Voice, 'sample_url'>): string =>
  voice.sample_url.startsWith('/api/') ? `${config.apiBase}${voice.sample_url.slice(4)}` : voice.sample_url;
