import { ProjectName } from '@hookreel/contracts';
import { PencilIcon } from 'lucide-react';
import { useState } from 'react';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';

/**
 * The project title; click to rename (Save / Cancel, Enter / Escape). A name that is blank after trimming
 * silently does nothing (docs/product.md#projects); other invalid names show the contracts' message.
 */
export function EditableTitle({
  name,
  onSave,
  saving,
}: {
  name: string;
  onSave: (name: string) => Promise<unknown> | void;
  saving?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(name);
  const [error, setError] = useState<string | null>(null);

  const start = () => {
    setDraft(name);
    setError(null);
    setEditing(true);
  };
  const cancel = () => {
    setEditing(false);
    setError(null);
  };
  const save = async () => {
    const trimmed = draft.trim();
    if (!trimmed) return;
    if (trimmed === name) {
      setEditing(false);
      return;
    }
    const parsed = ProjectName.safeParse(trimmed);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    try {
      await onSave(parsed.data);
      setEditing(false);
    } catch {
      /* the caller toasts; stay in edit mode */
    }
  };

  if (!editing) {
    return (
      <h1 className="min-w-0">
        <button
          type="button"
          onClick={start}
          title="Click to rename"
          className="group inline-flex max-w-full items-center gap-2 rounded-md text-left text-2xl font-bold tracking-tight outline-none hover:text-primary focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:text-3xl"
        >
          <span className="truncate">{name}</span>
          <PencilIcon
            className="size-4 shrink-0 opacity-0 transition-opacity group-hover:opacity-60 group-focus-visible:opacity-60"
            aria-hidden="true"
          />
        </button>
      </h1>
    );
  }

  return (
    <div className="w-full max-w-xl space-y-1">
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          aria-label="Project name"
          autoFocus
          value={draft}
          maxLength={120}
          onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              cancel();
            }
          }}
          className="text-lg"
        />
        <div className="flex gap-2">
          <Button onClick={() => void save()} disabled={saving}>
            Save
          </Button>
          <Button variant="outline" onClick={cancel} disabled={saving}>
            Cancel
          </Button>
        </div>
      </div>
      <FormError>{error}</FormError>
    </div>
  );
}
