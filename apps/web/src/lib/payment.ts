import type { QueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { errorDetail, isApiError } from '@/lib/api-client';
import { meQueryKey } from '@/lib/auth/api/get-me';

export const isPaymentRequired = (e: unknown): boolean => isApiError(e) && e.status === 402;

/**
 * On a 402 (docs/product.md#messages): show the server's detail or the default message and refresh the current user
 * (their balance changed or was insufficient). Returns true when the error was a 402 and has been handled.
 */
export function handlePaymentRequired(e: unknown, fallback: string, queryClient: QueryClient): boolean {
  if (!isPaymentRequired(e)) return false;
  toast.error(errorDetail(e, fallback));
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
  return true;
}
