import { LIMITS } from '@hookreel/contracts';
import { CostTag } from '@/components/cost-tag';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useServerPrices } from '@/lib/api/prices';

/** 'Generate More': a description (non-blank) for 4 more characters. Enter submits, Shift+Enter breaks the line. */
export function GenerateMoreDialog({
  open,
  onOpenChange,
  onSubmit,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSubmit: (description: string) => void;
}) {
  const prices = useServerPrices();
  const [description, setDescription] = useState('');
  const blank = !description.trim();
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (blank) return;
    onSubmit(description.trim());
    setDescription('');
    onOpenChange(false);
  };
  return (
    <TitledDialog
      open={open}
      onOpenChange={onOpenChange}
      onSubmit={submit}
      title="Generate More Characters"
      description={<>Describe who you want; we generate {LIMITS.generateMoreCount} more characters.</>}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="more-description">Character description</Label>
        <Textarea
          id="more-description"
          value={description}
          rows={3}
          maxLength={LIMITS.characterDescriptionMax}
          placeholder="e.g. Man in his 40s, outdoorsy, wearing a flannel shirt"
          onChange={(e) => setDescription(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              submit();
            }
          }}
        />
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button type="submit" disabled={blank}>
          Generate {LIMITS.generateMoreCount}{' '}
          <CostTag credits={prices.cost('characterGeneration', LIMITS.generateMoreCount)} />
        </Button>
      </DialogFooter>
    </TitledDialog>
  );
}
