import { formatCredits, type Job } from '@hookreel/contracts';
import { FlagIcon, Loader2Icon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { errorDetail } from '@/lib/api-client';
import { useOwnRefunds, useRequestRefund } from '@/lib/api/credits';
import { isRepeatClick } from '@/lib/repeat-click';

const STATE_TEXT = {
  pending: 'Refund requested: an administrator will review it.',
  approved: 'Refund approved: the credits are back in your balance.',
  declined: 'Refund declined.',
} as const;

/**
 * "Report a problem" on a finished video: asks for a refund of its credits with a reason; an administrator
 * approves or declines, and the answer shows here and in the credit history.
 */
export function ReportProblem({ job }: { job: Job }) {
  const refunds = useOwnRefunds();
  const request = useRequestRefund();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const existing = refunds.data?.find((r) => r.job_id === job.id);
  // Read synchronously: a second click before the button re-renders disabled sends no second request.
  const sending = useRef(false);

  if (job.status !== 'completed' || refunds.isPending) return null;
  if (existing) {
    return (
      <p data-testid="refund-state" className="rounded-lg border bg-muted/40 px-3 py-2 text-sm text-muted-foreground">
        {STATE_TEXT[existing.state]}
        {existing.state === 'approved' ? ` (${formatCredits(existing.amount)} credits)` : ''}
        {existing.decision_note ? ` Note: ${existing.decision_note}` : ''}
      </p>
    );
  }

  const submit = async () => {
    if (reason.trim().length < 5) {
      setError('Please describe the problem');
      return;
    }
    if (sending.current) return;
    sending.current = true;
    try {
      await request.mutateAsync({ jobId: job.id, reason: reason.trim() });
      toast.success('Thanks. An administrator will review your refund request.');
      setOpen(false);
    } catch (e) {
      setError(errorDetail(e, 'Could not send the report. Please try again.'));
    } finally {
      sending.current = false;
    }
  };

  return (
    <>
      <Button variant="ghost" className="w-full text-muted-foreground" onClick={() => setOpen(true)}>
        <FlagIcon aria-hidden="true" /> Report a problem
      </Button>
      <TitledDialog
        open={open}
        onOpenChange={setOpen}
        busy={request.isPending}
        title="Report a problem"
        description="Tell us what went wrong with this video. If an administrator agrees, its credits are refunded."
      >
        <div className="grid gap-1.5">
          <Label htmlFor="refund-reason">What is wrong?</Label>
          <Textarea
            id="refund-reason"
            value={reason}
            maxLength={1000}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            placeholder="e.g. The product is upside down in the actor's hand"
          />
          <FormError className="font-medium">{error}</FormError>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)} disabled={request.isPending}>
            Cancel
          </Button>
          <Button onClick={(e) => void (isRepeatClick(e) ? undefined : submit())} disabled={request.isPending}>
            {request.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            Ask for a refund
          </Button>
        </DialogFooter>
      </TitledDialog>
    </>
  );
}
