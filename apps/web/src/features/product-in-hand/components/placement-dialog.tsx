import { type MaskPlacement, MESSAGES } from '@hookreel/contracts';
import { CostTag } from '@/components/cost-tag';
import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { type ImageState, MaskError, PlacementEditor, renderMask, useImage } from '@/components/product-placement';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { useServerPrices } from '@/lib/api/prices';
import { isRepeatClick } from '@/lib/repeat-click';

/** 'Apply product' dialog: position the product on the actor, then render mask.png and hand both back. */
export interface PlacementDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  actorName: string;
  actorUrl: string | undefined;
  productUrl: string | undefined;
  initial: MaskPlacement;
  onApply: (placement: MaskPlacement, mask: File) => Promise<void>;
}

export function PlacementDialog(props: PlacementDialogProps) {
  const { open, onOpenChange, actorName } = props;
  const [busy, setBusy] = useState(false);
  return (
    <TitledDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      className="sm:max-w-xl"
      title={<>Position product · {actorName}</>}
      description="Drag the product into place, scroll or use the sliders to scale and rotate."
    >
      <PlacementBody {...props} busy={busy} setBusy={setBusy} />
    </TitledDialog>
  );
}

/** Mounted only while the dialog is open, so each opening starts from `initial`. */
function PlacementBody({
  onOpenChange,
  actorUrl,
  productUrl,
  initial,
  onApply,
  busy,
  setBusy,
}: PlacementDialogProps & { busy: boolean; setBusy: (b: boolean) => void }) {
  const prices = useServerPrices();
  const character = useImage(actorUrl);
  const product = useImage(productUrl);
  const [placement, setPlacement] = useState(initial);

  const apply = async () => {
    if (!product.image) return;
    setBusy(true);
    try {
      const mask = await renderMask(product.image, placement);
      await onApply(placement, mask);
    } catch (e) {
      if (e instanceof MaskError) toast.error(e.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PlacementEditor
        character={character}
        product={product as ImageState}
        value={placement}
        onChange={setPlacement}
      />
      {!productUrl ? <p className="text-sm text-destructive">{MESSAGES.hookPacks.productUrlNotFound}</p> : null}
      <DialogFooter>
        <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
          Cancel
        </Button>
        <Button
          variant="brand"
          onClick={(e) => {
            if (!isRepeatClick(e)) void apply();
          }}
          disabled={busy || !product.image}
        >
          {busy ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Apply <CostTag credits={prices.cost('merge')} />
        </Button>
      </DialogFooter>
    </>
  );
}
