import { useCallback } from 'react';
import { toast } from 'sonner';
import { errorDetail, isApiError } from '@/lib/api-client';
import { paymentRequiredToast } from '@/lib/payment';
import { useAuth } from '@/lib/auth';

/**
 * Error toasts for calls that spend credits: a 402 shows the server's detail (or the default for that
 * operation) and refreshes the current user; a 409 (the same work already made or on its way, started from
 * another tab) shows the server's detail and refreshes the balance that tab spent; other failures show
 * `otherwise`. True when the error was one of those two: the caller need not offer a retry.
 */
export function usePaidErrorToast() {
  const { refreshUser } = useAuth();
  return useCallback(
    (error: unknown, insufficient: string, otherwise: string): boolean => {
      if (isApiError(error) && error.status === 402) {
        paymentRequiredToast(error, insufficient);
        void refreshUser();
        return true;
      }
      if (isApiError(error) && error.status === 409) {
        toast.error(errorDetail(error, otherwise));
        void refreshUser().catch(() => undefined);
        return true;
      }
      toast.error(otherwise);
      return false;
    },
    [refreshUser],
  );
}

/**
 * After a call that reserved credits succeeds: re-reads the current user so the sidebar's balance shows what
 * is left (the server holds the credits as soon as the work is queued).
 */
export function useCreditsSpent() {
  const { refreshUser } = useAuth();
  return useCallback(() => {
    void refreshUser().catch(() => undefined);
  }, [refreshUser]);
}
