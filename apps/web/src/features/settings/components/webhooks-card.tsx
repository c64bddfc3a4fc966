import {
  INTEGRATION_LIMITS,
  INTEGRATION_MESSAGES,
  WEBHOOK_SIGNATURE_HEADER,
  type CreatedWebhookEndpoint,
  type WebhookDelivery,
} from '@hookreel/contracts';
import { PlayIcon, RefreshCwIcon, SendIcon, WebhookIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorDetail } from '@/lib/api-client';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useDeliveries,
  useResumeWebhook,
  useSendTestWebhook,
  useWebhooks,
} from '../api/webhooks';
import { formatWhen } from './format-when';
import { AddForm } from './add-form';
import { SecretOnce } from './secret-once';

const STATUS: Record<WebhookDelivery['status'], { label: string; variant: 'green' | 'yellow' | 'destructive' }> = {
  delivered: { label: 'Delivered', variant: 'green' },
  pending: { label: 'Retrying', variant: 'yellow' },
  failed: { label: 'Failed', variant: 'destructive' },
};

/** What the last attempt got: the HTTP status, or why the endpoint could not be reached. */
function outcome(d: WebhookDelivery): string {
  // Never tried: logged as not sent (endpoint paused, too many waiting), or not yet tried.
  if (d.attempts === 0) return d.status === 'failed' ? (d.last_error ?? 'Not sent') : 'Waiting for the first attempt';
  const tries = `${d.attempts} attempt${d.attempts === 1 ? '' : 's'}`;
  const last = d.last_error ?? (d.last_status_code !== null ? `HTTP ${d.last_status_code}` : '');
  const next = d.next_attempt_at ? ` · next try ${formatWhen(d.next_attempt_at)}` : '';
  return `${tries} · ${d.status === 'delivered' ? `HTTP ${d.last_status_code}` : last}${next}`;
}

/** Webhook endpoints (signing secret shown once), a "Send test" per endpoint, and the delivery log. */
export function WebhooksCard() {
  const endpoints = useWebhooks();
  const deliveries = useDeliveries();
  const create = useCreateWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendTestWebhook();
  const resume = useResumeWebhook();
  const [url, setUrl] = useState('');
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  /** Runs an endpoint's action and says how it went (the server's detail, or `failed`). */
  const act = (
    action: { mutate: (id: number, options: { onSuccess: () => void; onError: (err: Error) => void }) => void },
    id: number,
    done: string,
    failed: string,
  ) =>
    action.mutate(id, {
      onSuccess: () => toast.success(done),
      onError: (err) => toast.error(errorDetail(err, failed)),
    });

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(url.trim(), {
      onSuccess: (endpoint) => {
        setCreated(endpoint);
        setUrl('');
      },
      onError: (err) => toast.error(errorDetail(err, INTEGRATION_MESSAGES.webhookUrlInvalid)),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          We POST to your https endpoint when a video or a whole pack finishes or fails, signed in the{' '}
          <code className="rounded bg-muted px-1 text-xs">{WEBHOOK_SIGNATURE_HEADER}</code> header. Failed deliveries
          are retried for {INTEGRATION_LIMITS.webhookRetryHours} hours.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <AddForm
          label="Endpoint URL"
          input={{
            value: url,
            inputMode: 'url',
            maxLength: INTEGRATION_LIMITS.webhookUrlMax,
            placeholder: 'https://example.com/webhook',
            onChange: (e) => setUrl(e.target.value),
          }}
          submitLabel="Add Endpoint"
          pending={create.isPending}
          disabled={!url.trim()}
          onSubmit={onAdd}
        />

        {created ? (
          <SecretOnce
            label={`Signing secret for ${created.url}`}
            value={created.secret}
            notice={INTEGRATION_MESSAGES.secretCreatedNotice}
            onDone={() => setCreated(null)}
          />
        ) : null}

        {endpoints.isError ? <p className="text-sm text-destructive">Failed to load your webhooks.</p> : null}
        {endpoints.data && endpoints.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No webhook endpoints yet.</p>
        ) : null}
        <ul className="divide-y rounded-lg border empty:hidden" aria-label="Webhook endpoints">
          {(endpoints.data ?? []).map((e) => (
            <li key={e.id} className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
              <div className="min-w-0 space-y-1">
                <div className="flex min-w-0 items-center gap-3">
                  <WebhookIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="truncate font-mono text-sm">{e.url}</span>
                  {e.paused_at ? <Badge variant="destructive">Paused</Badge> : null}
                </div>
                {e.paused_at ? (
                  <p className="text-xs text-muted-foreground">
                    {INTEGRATION_MESSAGES.webhookPausedNotice} Paused {formatWhen(e.paused_at)}.
                  </p>
                ) : null}
              </div>
              <div className="flex shrink-0 gap-2">
                {e.paused_at ? (
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Resume ${e.url}`}
                    disabled={resume.isPending}
                    onClick={() => act(resume, e.id, 'Endpoint resumed', 'Failed to resume the endpoint')}
                  >
                    <PlayIcon aria-hidden="true" />
                    Resume
                  </Button>
                ) : (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={sendTest.isPending}
                    // 429 after too many tests in a minute: the server's message says how long to wait.
                    onClick={() => act(sendTest, e.id, 'Test event queued', 'Failed to send the test event')}
                  >
                    <SendIcon aria-hidden="true" />
                    Send test
                  </Button>
                )}
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={`Delete ${e.url}`}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(e.id, {
                      onError: (err) => toast.error(errorDetail(err, 'Failed to delete the endpoint')),
                    })
                  }
                >
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>

        <div className="space-y-2">
          <div className="flex items-center justify-between">
            <h3 className="text-sm font-medium">Delivery log</h3>
            <Button variant="ghost" size="sm" onClick={() => deliveries.refetch()} aria-label="Refresh delivery log">
              <RefreshCwIcon aria-hidden="true" />
            </Button>
          </div>
          {deliveries.data && deliveries.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No deliveries yet.</p>
          ) : null}
          <ul className="divide-y rounded-lg border text-sm empty:hidden" aria-label="Delivery log">
            {(deliveries.data ?? []).map((d) => (
              <li key={d.id} className="flex items-start justify-between gap-4 p-3">
                <div className="min-w-0 space-y-0.5">
                  <p className="font-mono text-xs">{d.event_type}</p>
                  <p className="truncate text-xs text-muted-foreground">
                    {formatWhen(d.created_at)} · {d.url}
                  </p>
                  <p className="text-xs text-muted-foreground">{outcome(d)}</p>
                </div>
                <Badge variant={STATUS[d.status].variant}>{STATUS[d.status].label}</Badge>
              </li>
            ))}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}
