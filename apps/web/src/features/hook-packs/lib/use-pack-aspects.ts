import { MESSAGES, type Aspect, type HookPack } from '@hookreel/contracts';
import { useState } from 'react';
import { saveOrRestore } from '@/lib/save-or-restore';
import { type UpdateHookPackInput, useUpdateHookPack } from '../api/update-hook-pack';

/**
 * The frame shapes a pack's videos are exported in, for the Generate step and the matrix: saved as soon as they
 * are ticked (a failed save puts the stored ones back), and `saved()` waits for a pick still being saved before
 * the videos are queued, so every video renders in the shapes the picker showed.
 */
export function usePackAspects(pack: HookPack) {
  const save = useUpdateHookPack();
  const [aspects, setAspects] = useState<Aspect[]>(pack.aspects);
  const saveAspects = saveOrRestore(
    (patch: UpdateHookPackInput, options: { onError: (e: unknown) => void }) =>
      save.mutate({ id: pack.id, ...patch }, options),
    MESSAGES.hookPacks.aspectsFailed,
  );
  const change = (next: Aspect[]) => saveAspects('aspects', next, aspects, setAspects);
  const saved = async (): Promise<void> => {
    if (aspects.join(',') !== pack.aspects.join(',')) await save.mutateAsync({ id: pack.id, aspects });
  };
  return { aspects, change, saved };
}
