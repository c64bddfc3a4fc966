import { CostTag } from '@/components/cost-tag';
import {
  type GeneratedCharacter,
  type HookPack,
  INSUFFICIENT_CREDITS,
  MESSAGES,
  TIMINGS,
  type PreviewCharacter,
} from '@hookreel/contracts';
import { CheckCircle2Icon, Loader2Icon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import {
  defaultPlacement,
  MaskError,
  type Placement,
  PlacementEditor,
  renderMask,
  useImage,
} from '@/components/product-placement';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { staticUrl } from '@/lib/urls';
import { useGeneratePreviewFromEditor } from '../api/generate-preview-from-editor';
import { useCreditsSpent, usePaidErrorToast } from '../lib/use-paid-error';
import { useServerPrices } from '@/lib/api/prices';
import { isRepeatClick } from '@/lib/repeat-click';

type Phase = 'idle' | 'mask' | 'saving' | 'saved';

const placementOf = (p: PreviewCharacter | null | undefined): Placement =>
  p && p.position_x !== null && p.position_y !== null && p.scale !== null
    ? { position_x: p.position_x, position_y: p.position_y, scale: p.scale, rotation: p.rotation ?? 0 }
    : defaultPlacement();

/**
 * Product placement editor for one character: drag/scale/rotate the product on a <canvas>, then save — the
 * mask.png and the placement go to POST /hooks/generate-preview (multipart). Closes 1 s after a save.
 * Mount it per character (a key) so each opening starts from that preview's placement.
 */
export function PlacementDialog({
  pack,
  character,
  preview,
  open,
  onOpenChange,
}: {
  pack: HookPack;
  character: GeneratedCharacter | null;
  preview: PreviewCharacter | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const prices = useServerPrices();
  const [placement, setPlacement] = useState<Placement>(() => placementOf(preview));
  const [phase, setPhase] = useState<Phase>('idle');
  const [maskDone, setMaskDone] = useState(false);
  const characterImage = useImage(open ? staticUrl(character?.url) : null);
  const productImage = useImage(open ? staticUrl(pack.product_url) : null);
  const save = useGeneratePreviewFromEditor();
  const paidError = usePaidErrorToast();
  const creditsSpent = useCreditsSpent();
  const closeTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  const onSave = async () => {
    if (!character) {
      toast.error(MESSAGES.hookPacks.characterNotFound);
      return;
    }
    if (!pack.product_url || productImage.status !== 'loaded') {
      toast.error(MESSAGES.hookPacks.productUrlNotFound);
      return;
    }
    setPhase('mask');
    setMaskDone(false);
    let mask: File;
    try {
      mask = await renderMask(productImage.image, placement);
    } catch (e) {
      toast.error(e instanceof MaskError ? e.message : MESSAGES.masks.failed);
      setPhase('idle');
      return;
    }
    setMaskDone(true);
    setPhase('saving');
    save.mutate(
      { hookPackId: pack.id, generatedCharacterId: character.id, mask, placement },
      {
        onSuccess: () => {
          creditsSpent();
          setPhase('saved');
          closeTimer.current = window.setTimeout(() => onOpenChange(false), TIMINGS.previewDialogCloseMs);
        },
        onError: (error) => {
          setPhase('idle');
          paidError(error, INSUFFICIENT_CREDITS.previews, MESSAGES.hookPacks.previewFailed);
        },
      },
    );
  };

  const busy = phase === 'mask' || phase === 'saving';
  return (
    <TitledDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      className="max-w-3xl"
      title="Position Product"
      description="Drag the product into the character's hand. Scroll or use the slider to scale, and the rotation slider to turn it."
    >
      <PlacementEditor
        character={characterImage}
        product={productImage}
        value={placement}
        onChange={setPlacement}
        canvasClassName="h-[min(55vh,560px)]"
      />
      <div className="min-h-5 text-center text-sm" aria-live="polite" data-testid="mask-status">
        {phase === 'mask' ? (
          <span className="inline-flex items-center gap-2">
            <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> {MESSAGES.masks.generating}
          </span>
        ) : maskDone ? (
          <span className="inline-flex items-center gap-2 text-emerald-700 dark:text-emerald-400">
            <CheckCircle2Icon className="size-4" aria-hidden="true" /> {MESSAGES.masks.generated}
          </span>
        ) : null}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
          Cancel
        </Button>
        <Button
          type="button"
          variant="brand"
          onClick={(e) => {
            if (!isRepeatClick(e)) void onSave();
          }}
          disabled={busy || phase === 'saved'}
        >
          {phase === 'saving' ? 'Saving...' : phase === 'saved' ? 'Saved' : 'Save Position'}
          {phase === 'idle' ? <CostTag credits={prices.cost('previewImage')} /> : null}
        </Button>
      </DialogFooter>
    </TitledDialog>
  );
}
