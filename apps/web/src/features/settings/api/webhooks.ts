import { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint, WebhookTestResponse } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** GET /api/webhooks: the user's endpoints. */
export const listWebhooks = async (): Promise<WebhookEndpoint[]> =>
  z.array(WebhookEndpoint).parse(await api.get('/webhooks'));

/** POST /api/webhooks {url}: the only answer that carries the signing secret. */
export const createWebhook = async (url: string): Promise<CreatedWebhookEndpoint> =>
  CreatedWebhookEndpoint.parse(await api.post('/webhooks', { url }));

export const deleteWebhook = async (id: number): Promise<void> => {
  await api.delete(`/webhooks/${id}`);
};

/** POST /api/webhooks/{id}/test: queues a signed webhook.test event. */
export const sendTestWebhook = async (id: number) => WebhookTestResponse.parse(await api.post(`/webhooks/${id}/test`));

/** POST /api/webhooks/{id}/resume: a paused endpoint is sent events again. */
export const resumeWebhook = async (id: number): Promise<WebhookEndpoint> =>
  WebhookEndpoint.parse(await api.post(`/webhooks/${id}/resume`));

/** GET /api/webhooks/deliveries: the latest deliveries, newest first. */
export const listDeliveries = async (): Promise<WebhookDelivery[]> =>
  z.array(WebhookDelivery).parse(await api.get('/webhooks/deliveries'));

export const useWebhooks = () => useQuery({ queryKey: queryKeys.integrations.webhooks(), queryFn: listWebhooks });

/** The log refreshes every few seconds while a delivery is still being tried. */
export const useDeliveries = () =>
  useQuery({
    queryKey: queryKeys.integrations.deliveries(),
    queryFn: listDeliveries,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 2000 : false),
  });

function useInvalidateWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['integrations'] });
}

export function useCreateWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: createWebhook, onSuccess: invalidate });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: deleteWebhook, onSuccess: invalidate });
}

export function useSendTestWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: sendTestWebhook, onSuccess: invalidate });
}

export function useResumeWebhook() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: resumeWebhook, onSuccess: invalidate });
}
