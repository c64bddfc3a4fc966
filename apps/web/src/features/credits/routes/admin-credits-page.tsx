import { AdminCreditAdjustment, AdminCreditAdjustmentResult, formatCredits, RefundRequest } from '@hookreel/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2Icon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormError } from '@/components/form-error';
import { ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { api, errorDetail } from '@/lib/api-client';
import { refreshCredits } from '@/lib/api/credits';
import { useAuth } from '@/lib/auth';
import { queryKeys } from '@/lib/query-keys';

function AdjustForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const adjust = useMutation({
    mutationFn: async (input: AdminCreditAdjustment) =>
      AdminCreditAdjustmentResult.parse(await api.post('/admin/credits', input)),
    onSuccess: () => refreshCredits(queryClient),
  });

  const submit = (action: 'grant' | 'take') => async (e?: FormEvent) => {
    e?.preventDefault();
    const parsed = AdminCreditAdjustment.safeParse({ email, action, amount: Number(amount), reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the form');
      return;
    }
    setError(null);
    try {
      const out = await adjust.mutateAsync(parsed.data);
      toast.success(
        `${action === 'grant' ? 'Granted' : 'Took'} ${formatCredits(parsed.data.amount)} credits. ${out.email} now has ${formatCredits(out.credits)}.`,
      );
      setAmount('');
      setReason('');
    } catch (err) {
      setError(errorDetail(err, 'Could not change the balance. Please try again.'));
    }
  };

  return (
    <form onSubmit={(e) => void submit('grant')(e)} className="space-y-4 rounded-xl border bg-card p-5" noValidate>
      <h2 className="text-lg font-semibold">Grant or take credits</h2>
      <p className="text-sm text-muted-foreground">
        Each change is a row in the user&apos;s credit history with your reason. Balances are never edited.
      </p>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <div className="grid gap-1.5">
          <Label htmlFor="adjust-email">User e-mail</Label>
          <Input id="adjust-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="adjust-amount">Credits</Label>
          <Input
            id="adjust-amount"
            inputMode="decimal"
            value={amount}
            placeholder="5.00"
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="adjust-reason">Reason</Label>
        <Input id="adjust-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </div>
      <FormError className="font-medium">{error}</FormError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={adjust.isPending}>
          {adjust.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Grant credits
        </Button>
        <Button type="button" variant="outline" disabled={adjust.isPending} onClick={() => void submit('take')()}>
          Take credits
        </Button>
      </div>
    </form>
  );
}

function RefundQueue() {
  const queryClient = useQueryClient();
  const refunds = useQuery({
    queryKey: queryKeys.credits.adminRefunds(),
    queryFn: async () => z.array(RefundRequest).parse(await api.get('/admin/refunds')),
  });
  const [notes, setNotes] = useState<Record<number, string>>({});
  const decide = useMutation({
    mutationFn: async (v: { id: number; decision: 'approve' | 'decline'; note?: string }) =>
      RefundRequest.parse(await api.post(`/admin/refunds/${v.id}`, { decision: v.decision, note: v.note })),
    onSuccess: (r) => {
      toast.success(
        r.state === 'approved' ? `Refunded ${formatCredits(r.amount)} credits to ${r.user_email}.` : 'Refund declined.',
      );
      refreshCredits(queryClient);
    },
    onError: (err) => toast.error(errorDetail(err, 'Could not record the decision. Please try again.')),
  });

  return (
    <section className="space-y-4 rounded-xl border bg-card p-5" aria-labelledby="refund-queue">
      <h2 id="refund-queue" className="text-lg font-semibold">
        Refund requests
      </h2>
      {refunds.isError ? <ErrorBanner>Failed to load refund requests.</ErrorBanner> : null}
      {refunds.data?.length === 0 ? <p className="text-sm text-muted-foreground">No refund requests.</p> : null}
      <ul className="space-y-3">
        {refunds.data?.map((r) => (
          <li key={r.id} data-testid="refund-request" className="space-y-2 rounded-lg border p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="text-sm">
                <span className="font-medium">{r.user_email}</span> ·{' '}
                <Link className="text-primary hover:underline" to={`/jobs/${r.job_id}`}>
                  {r.project_name}
                </Link>{' '}
                · {formatCredits(r.amount)} credits
              </p>
              <Badge variant={r.state === 'pending' ? 'yellow' : r.state === 'approved' ? 'green' : 'gray'}>
                {r.state}
              </Badge>
            </div>
            <p className="text-sm text-muted-foreground">“{r.reason}”</p>
            {r.state === 'pending' ? (
              <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
                <Textarea
                  aria-label={`Note for request ${r.id}`}
                  placeholder="Note to the user (optional)"
                  className="min-h-9 flex-1"
                  value={notes[r.id] ?? ''}
                  onChange={(e) => setNotes({ ...notes, [r.id]: e.target.value })}
                />
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: r.id, decision: 'approve', note: notes[r.id] })}
                  >
                    Approve refund
                  </Button>
                  <Button
                    size="sm"
                    variant="outline"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ id: r.id, decision: 'decline', note: notes[r.id] })}
                  >
                    Decline
                  </Button>
                </div>
              </div>
            ) : r.decision_note ? (
              <p className="text-xs text-muted-foreground">Note: {r.decision_note}</p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** /admin/credits: administrators (ADMIN_EMAILS) adjust balances and decide refund requests. */
export function AdminCreditsPage() {
  const { isAdmin } = useAuth();
  if (!isAdmin) return <Navigate to="/credits" replace />;
  return (
    <Page className="max-w-4xl space-y-6">
      <PageHeader title="Credits administration" description="Adjust a user's credits and decide refund requests." />
      <AdjustForm />
      <RefundQueue />
    </Page>
  );
}
