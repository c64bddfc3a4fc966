import { INTEGRATION_LIMITS, INTEGRATION_MESSAGES, type CreatedApiKey } from '@hookreel/contracts';
import { KeyRoundIcon } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { errorDetail } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { isRepeatClick } from '@/lib/repeat-click';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys';
import { formatWhen } from './format-when';
import { AddForm } from './add-form';
import { SecretOnce } from './secret-once';

/** Personal API keys: create (the key is shown once), see when each was last used, revoke. */
export function ApiKeysCard() {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  // Administrators may make a key that also reaches administrator routes; off unless they tick it (decision 175).
  const { user } = useAuth();
  const adminId = useId();
  const [adminScope, setAdminScope] = useState(false);
  // Set before the request, read synchronously: a second submit before React re-renders the disabled button
  // (a double click, Enter held down) would otherwise create a second key.
  const creating = useRef(false);
  const [revoking, setRevoking] = useState<{ id: number; name: string } | null>(null);

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    if (creating.current) return;
    const trimmed = name.trim();
    if (!trimmed) {
      toast.error(INTEGRATION_MESSAGES.apiKeyNameRequired);
      return;
    }
    creating.current = true;
    create.mutate(
      { name: trimmed, scope: user?.is_admin && adminScope ? 'admin' : 'user' },
      {
        onSettled: () => {
          creating.current = false;
        },
        onSuccess: (key) => {
          setCreated(key);
          setName('');
          setAdminScope(false);
        },
        onError: (err) => toast.error(errorDetail(err, 'Failed to create the API key')),
      },
    );
  };

  const onRevoke = (id: number, keyName: string) => {
    revoke.mutate(id, {
      onSuccess: () => toast.success(`Revoked "${keyName}"`),
      onError: (err) => toast.error(errorDetail(err, 'Failed to revoke the API key')),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>API Keys</CardTitle>
        <CardDescription>
          Let your scripts and tools use Hookreel as you: send a key as{' '}
          <code className="rounded bg-muted px-1 text-xs">Authorization: Bearer &lt;key&gt;</code>. Each key may make{' '}
          {INTEGRATION_LIMITS.apiKeyRequestsPerMinute} requests a minute.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <AddForm
          label="Key name"
          input={{
            value: name,
            maxLength: INTEGRATION_LIMITS.apiKeyNameMax,
            placeholder: 'e.g. Zapier, CI pipeline',
            onChange: (e) => setName(e.target.value),
          }}
          submitLabel="Create Key"
          pending={create.isPending}
          onSubmit={onCreate}
          onSubmitClick={(e) => {
            if (isRepeatClick(e)) e.preventDefault();
          }}
        />
        {user?.is_admin ? (
          <div className="flex items-start gap-2 text-sm">
            <input
              id={adminId}
              type="checkbox"
              className="mt-1"
              checked={adminScope}
              onChange={(e) => setAdminScope(e.target.checked)}
            />
            <Label htmlFor={adminId} className="block font-normal">
              Admin key: may also use administrator routes (grant credits, decide refunds). Leave off for integrations;
              every admin action is logged with the key.
            </Label>
          </div>
        ) : null}

        {created ? (
          <SecretOnce
            label={`New key "${created.name}"`}
            value={created.key}
            notice={INTEGRATION_MESSAGES.keyCreatedNotice}
            onDone={() => setCreated(null)}
          />
        ) : null}

        {keys.isError ? <p className="text-sm text-destructive">Failed to load your API keys.</p> : null}
        {keys.data && keys.data.length === 0 ? <p className="text-sm text-muted-foreground">No API keys yet.</p> : null}
        <ul className="divide-y rounded-lg border empty:hidden" aria-label="API keys">
          {(keys.data ?? []).map((k) => (
            <li key={k.id} className="flex items-center justify-between gap-4 p-3">
              <div className="flex min-w-0 items-start gap-3">
                <KeyRoundIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                <div className="min-w-0">
                  <p className="flex items-center gap-2 truncate text-sm font-medium">
                    {k.name}
                    {k.scope === 'admin' ? (
                      <Badge variant="yellow" data-testid="admin-key-badge">
                        Admin
                      </Badge>
                    ) : null}
                  </p>
                  <p className="text-xs text-muted-foreground">
                    <span className="font-mono">{k.prefix}…</span> · Created {formatWhen(k.created_at)} · Last used{' '}
                    {k.last_used_at ? formatWhen(k.last_used_at) : 'never'}
                  </p>
                </div>
              </div>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Revoke ${k.name}`}
                disabled={revoke.isPending}
                onClick={() => setRevoking({ id: k.id, name: k.name })}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
        <ConfirmDeleteDialog
          open={revoking !== null}
          onOpenChange={(open) => {
            if (!open) setRevoking(null);
          }}
          onConfirm={() => {
            if (revoking) onRevoke(revoking.id, revoking.name);
            setRevoking(null);
          }}
          title={`Revoke "${revoking?.name ?? ''}"?`}
          description="Scripts and tools that use this key stop working at once. This cannot be undone: a new key has a new secret."
          confirmLabel="Revoke key"
        />
      </CardContent>
    </Card>
  );
}
