import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';

/** A mutation's per-call options, as much of them as a background save needs. */
interface SaveOptions {
  onError: (error: unknown) => void;
}

/**
 * For settings shown as soon as they are picked and saved in the background. Returns `change(field, next, before,
 * show)`: shows `next`, saves `{ [field]: next }` with `save`, and when that fails shows `before` again and says
 * why (the server's detail, or `failed`).
 */
export function saveOrRestore<P extends object>(save: (patch: P, options: SaveOptions) => void, failed: string) {
  return <K extends keyof P, V extends P[K]>(field: K, next: V, before: V, show: (value: V) => void) => {
    show(next);
    save({ [field]: next } as P, {
      onError: (e) => {
        show(before);
        toast.error(errorDetail(e, failed));
      },
    });
  };
}
