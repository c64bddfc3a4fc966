import { useState } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';

/**
 * A list's "Delete" behind a confirmation: `ask(item)` opens the dialog for it, `cancel()` closes it, and
 * `confirm()` closes it and deletes with `remove`, saying `deleted` or why it failed (the server's detail, or
 * `failed`).
 */
export function useConfirmDelete<T extends { id: number }>(
  remove: (id: number, options: { onSuccess: () => void; onError: (e: unknown) => void }) => void,
  { deleted, failed }: { deleted: string; failed: string },
) {
  const [pending, setPending] = useState<T | null>(null);
  const confirm = () => {
    const item = pending;
    setPending(null);
    if (!item) return;
    remove(item.id, {
      onSuccess: () => toast.success(deleted),
      onError: (e) => toast.error(errorDetail(e, failed)),
    });
  };
  return { pending, ask: setPending, cancel: () => setPending(null), confirm };
}
