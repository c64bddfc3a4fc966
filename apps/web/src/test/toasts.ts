import { toast } from 'sonner';
import { beforeEach, vi } from 'vitest';

/**
 * Replaces sonner's toasts with spies for every test of the calling file, so a test asserts which message the
 * screen gave without drawing it. Spies on the shared module object rather than vi.mock('sonner'): web test files
 * share a worker's module registry, where a mocked module would leak into later files (decision 153).
 */
export function spyOnToasts(): void {
  beforeEach(() => {
    for (const kind of ['success', 'error', 'info', 'warning'] as const) {
      vi.spyOn(toast, kind).mockImplementation(() => 0);
    }
  });
}
