import type { Avatar } from '@hookreel/contracts';
import { Loader2Icon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { staticUrl } from '@/lib/urls';
import { type Box, boxFromAvatar } from '../lib/bounds-geometry';
import { BoundsEditor } from './bounds-editor';

/** 'Edit Avatar Bounds'. The box lives in the dialog body, so it starts afresh each time the dialog opens. */
export function EditBoundsDialog({
  avatar,
  saving,
  onCancel,
  onSave,
}: {
  avatar: Avatar | null;
  saving: boolean;
  onCancel: () => void;
  onSave: (box: Box) => void;
}) {
  return (
    <TitledDialog
      open={avatar !== null}
      onOpenChange={(o) => !o && onCancel()}
      busy={saving}
      className="sm:max-w-xl"
      title="Edit Avatar Bounds"
      description="Where the product goes in this avatar's 576x1024 frame."
      hideDescription
    >
      {avatar ? (
        <EditBoundsBody key={avatar.id} avatar={avatar} saving={saving} onCancel={onCancel} onSave={onSave} />
      ) : null}
    </TitledDialog>
  );
}

function EditBoundsBody({
  avatar,
  saving,
  onCancel,
  onSave,
}: {
  avatar: Avatar;
  saving: boolean;
  onCancel: () => void;
  onSave: (box: Box) => void;
}) {
  const [box, setBox] = useState<Box>(() => boxFromAvatar(avatar));
  return (
    <>
      <BoundsEditor imageUrl={staticUrl(avatar.url)} value={box} onChange={setBox} />
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
        <Button onClick={() => onSave(box)} disabled={saving}>
          {saving ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          Save Bounds
        </Button>
      </DialogFooter>
    </>
  );
}
