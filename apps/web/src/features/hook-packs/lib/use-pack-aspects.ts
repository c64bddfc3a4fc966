import { MESSAGES, type Aspect, type HookPack } from '@hookreel/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';
import { useUpdateHookPack } from '../api/update-hook-pack';

/**
 * The frame shapes a pack's videos are exported in, for the Generate step and the matrix: saved as soon as they
 * are ticked (a failed save puts the stored ones back), and `saved()` waits for a pick still being saved before
 * the videos are queued, so every video renders in the shapes the picker showed.
 */
export function usePackAspects(pack: HookPack) {
  const save = useUpdateHookPack();
  const [aspects, setAspects] = useState<Aspect[]>(pack.aspects);
  const change = (next: Aspect[]) => {
    const before = aspects;
    setAspects(next);
    save.mutate(
      { id: pack.id, aspects: next },
      {
        onError: (e) => {
          setAspects(before);
          toast.error(errorDetail(e, MESSAGES.hookPacks.aspectsFailed));
        },
      },
    );
  };
  const saved = async (): Promise<void> => {
    if (aspects.join(',') !== pack.aspects.join(',')) await save.mutateAsync({ id: pack.id, aspects });
  };
  return { aspects, change, saved };
}
