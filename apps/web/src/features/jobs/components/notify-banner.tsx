import { MESSAGES } from '@hookreel/contracts';
import { BellIcon } from 'lucide-react';
import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { useEnableNotify } from '@/lib/api/update-notify';

/** 'Notify Me' banner, shown only when the user's notify is false (docs/product.md#jobs). */
export function NotifyBanner() {
  const { user, refreshUser } = useAuth();
  const enable = useEnableNotify();
  if (!user || user.notify) return null;
  const onClick = () =>
    enable.mutate(undefined, {
      onSuccess: () => {
        toast.success(MESSAGES.notifications.enabled);
        void refreshUser();
      },
      onError: (e) => toast.error(errorDetail(e, MESSAGES.notifications.updateFailed)),
    });
  return (
    <div
      data-testid="notify-banner"
      className="mb-6 flex flex-col gap-3 rounded-xl border border-primary/20 bg-primary/5 p-4 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
          <BellIcon className="size-4" aria-hidden="true" />
        </span>
        <div>
          <p className="font-medium">Get notified when your videos are ready</p>
          <p className="text-sm text-muted-foreground">
            We'll send you an e-mail as soon as a video finishes rendering.
          </p>
        </div>
      </div>
      <Button onClick={onClick} disabled={enable.isPending} className="sm:shrink-0">
        Notify Me
      </Button>
    </div>
  );
}
