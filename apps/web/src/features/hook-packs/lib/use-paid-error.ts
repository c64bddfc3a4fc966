import { useCallback } from 'react';
import { toast } from 'sonner';
import { isApiError } from '@/lib/api-client';
import { paymentRequiredToast } from '@/lib/payment';
import { useAuth } from '@/lib/auth';

/**
 * Error toasts for calls that spend credits: a 402 shows the server's detail (or the default for that
 * operation) and refreshes the current user; other failures show `otherwise`.
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
