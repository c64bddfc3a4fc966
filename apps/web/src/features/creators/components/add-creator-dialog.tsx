import { CREATOR_LIMITS, CREATOR_MESSAGES, creatorConsentText } from '@hookreel/contracts';
import { Loader2Icon } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { errorDetail } from '@/lib/api-client';
import { useAddCreator } from '../api/creators';

/**
 * "Add a creator": a photo of the person, their name, and a consent box that names what they agreed to (the same
 * words are kept with the creator). A photo the face check refuses shows the reason here, in the dialog.
 */
export function AddCreatorDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const add = useAddCreator();
  const ids = { photo: useId(), name: useId(), consent: useId() };
  const [photo, setPhoto] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [consent, setConsent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const preview = useMemo(
    () => (photo && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(photo) : null),
    [photo],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const reset = () => {
    setPhoto(null);
    setName('');
    setConsent(false);
    setError(null);
  };
  const trimmed = name.trim();
  const nameOk = trimmed.length > 0 && trimmed.length <= CREATOR_LIMITS.nameMax;
  const onAdd = () => {
    if (!photo) return;
    setError(null);
    add.mutate(
      { photo, name: trimmed },
      {
        onSuccess: () => {
          reset();
          onOpenChange(false);
        },
        onError: (err) => setError(errorDetail(err, 'The creator could not be added')),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (add.isPending) return;
        if (!o) reset();
        onOpenChange(o);
      }}
    >
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Add a creator</DialogTitle>
          <DialogDescription>
            A photo of a real person who agreed to appear in your ads: a clear, front-facing head and shoulders shot.
            Only you can see and use them.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-4 sm:grid-cols-[120px_1fr]">
          <div className="relative aspect-[9/16] overflow-hidden rounded-lg border bg-muted">
            {preview ? <img src={preview} alt="" className="absolute inset-0 size-full object-cover" /> : null}
          </div>
          <div className="space-y-3">
            <div className="space-y-1">
              <Label htmlFor={ids.photo}>Photo</Label>
              <Input
                id={ids.photo}
                type="file"
                accept="image/png,image/jpeg,image/webp"
                disabled={add.isPending}
                onChange={(e) => {
                  setPhoto(e.target.files?.[0] ?? null);
                  setError(null);
                }}
              />
            </div>
            <div className="space-y-1">
              <Label htmlFor={ids.name}>Name</Label>
              <Input
                id={ids.name}
                value={name}
                maxLength={CREATOR_LIMITS.nameMax}
                disabled={add.isPending}
                placeholder="e.g. Maya"
                onChange={(e) => setName(e.target.value)}
              />
            </div>
          </div>
        </div>
        <label className="flex items-start gap-2 text-sm" htmlFor={ids.consent}>
          <input
            id={ids.consent}
            type="checkbox"
            className="mt-0.5 size-4 accent-primary"
            checked={consent}
            disabled={add.isPending}
            onChange={(e) => setConsent(e.target.checked)}
          />
          <span data-testid="consent-text">{creatorConsentText(trimmed || 'The person in this photo')}</span>
        </label>
        {!consent && photo ? <p className="text-xs text-muted-foreground">{CREATOR_MESSAGES.consentRequired}</p> : null}
        {error ? (
          <p
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 p-2 text-sm text-destructive"
          >
            {error}
          </p>
        ) : null}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={add.isPending}>
            Cancel
          </Button>
          <Button onClick={onAdd} disabled={!photo || !nameOk || !consent || add.isPending}>
            {add.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            {add.isPending ? 'Checking the face…' : 'Add creator'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
