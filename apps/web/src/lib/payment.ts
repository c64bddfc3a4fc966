import { formatCredits } from '@hookreel/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { errorDetail, isApiError } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth/api/get-me';

export const isPaymentRequired = (e: unknown): boolean => isApiError(e) && e.status === 402;

/** Shows a 402: the message, and how many more credits the action needs when the server said so. */
export function paymentRequiredToast(e: unknown, fallback: string): void {
  const body = isApiError(e) ? e.body : undefined;
  const missing = body && typeof body === 'object' && 'missing' in body ? Number(body.missing) : NaN;
  if (Number.isFinite(missing) && missing > 0) {
    toast.error(errorDetail(e, fallback), {
      description: `You need ${formatCredits(missing)} more credits.`,
      action: { label: 'Get credits', onClick: () => window.location.assign('/credits') },
    });
  } else toast.error(errorDetail(e, fallback));
}

/**
 * On a 402 (docs/product.md#messages): show the server's detail or the default message and refresh the current user
 * (their balance changed or was insufficient). Returns true when the error was a 402 and has been handled.
 */
export function handlePaymentRequired(e: unknown, fallback: string, queryClient: QueryClient): boolean {
  if (!isPaymentRequired(e)) return false;
  paymentRequiredToast(e, fallback);
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
  return true;
}
