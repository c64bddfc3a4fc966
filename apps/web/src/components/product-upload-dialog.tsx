import { LIMITS, VALIDATION } from '@hookreel/contracts';
import { CheckCircle2Icon, ImageUpIcon, Loader2Icon, XIcon } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { useFileDrop } from '@/hooks/use-file-drop';
import { cn } from '@/lib/utils';

export const PRODUCT_GUIDELINES = [
  'Product facing forward',
  'Clean background',
  'Well-lit',
  'No hands or people',
] as const;

/** A photo that comes cut out needs no background removal: the server keeps its own edges (decision 151). */
export const TRANSPARENT_PHOTO_NOTE = 'A PNG or WEBP with a transparent background is used as it is.';

/** A project name from an uploaded file's name: extension dropped, separators as spaces, 3 to 100 characters. */
export function projectNameFromFile(fileName: string): string {
  const base = fileName
    .replace(/\.[^./\\]+$/, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const name = (base || 'Product').slice(0, LIMITS.projectNameMax).trim();
  return name.length >= LIMITS.projectNameMin ? name : name.padEnd(LIMITS.projectNameMin, '_');
}

export const isImageFile = (f: File): boolean => f.type.startsWith('image/');

/**
 * 'Upload your product' dialog: guidelines, image check ('Please upload an image file'), preview, Continue.
 * `onContinue` does the work (creating the project); the dialog shows a busy state and stays open on failure.
 */
export function ProductUploadDialog({
  open,
  onOpenChange,
  onContinue,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onContinue: (file: File) => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <TitledDialog
      open={open}
      onOpenChange={onOpenChange}
      busy={busy}
      className="sm:max-w-xl"
      title="Upload your product"
      description="A clear product photo gives the best results."
    >
      {/* The body is mounted only while open: each opening starts with no file. */}
      <UploadBody busy={busy} setBusy={setBusy} onCancel={() => onOpenChange(false)} onContinue={onContinue} />
    </TitledDialog>
  );
}

function UploadBody({
  busy,
  setBusy,
  onCancel,
  onContinue,
}: {
  busy: boolean;
  setBusy: (b: boolean) => void;
  onCancel: () => void;
  onContinue: (file: File) => Promise<void>;
}) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const preview = useMemo(
    () => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const pick = (f: File | undefined | null) => {
    if (!f) return;
    if (!isImageFile(f)) {
      setFile(null);
      setError(VALIDATION.imageRequired);
      return;
    }
    setError(null);
    setFile(f);
  };

  const { dragOver, dropZoneProps } = useFileDrop(pick);

  const submit = async () => {
    if (!file || busy) return;
    setBusy(true);
    try {
      await onContinue(file);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <ul className="grid grid-cols-2 gap-2 text-sm">
        {PRODUCT_GUIDELINES.map((g) => (
          <li key={g} className="flex items-center gap-2">
            <CheckCircle2Icon className="size-4 shrink-0 text-emerald-600" aria-hidden="true" />
            {g}
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">{TRANSPARENT_PHOTO_NOTE}</p>
      {file ? (
        <div className="flex items-center gap-4 rounded-lg border p-3">
          {preview ? (
            <img src={preview} alt="Product preview" className="size-24 shrink-0 rounded-md bg-muted object-contain" />
          ) : null}
          <div className="min-w-0 flex-1 text-sm">
            <p className="truncate font-medium">{file.name}</p>
            <p className="text-muted-foreground">{(file.size / 1024).toFixed(0)} KB</p>
          </div>
          <Button
            variant="ghost"
            size="icon-sm"
            aria-label="Remove image"
            onClick={() => setFile(null)}
            disabled={busy}
          >
            <XIcon />
          </Button>
        </div>
      ) : (
        <label
          htmlFor={inputId}
          {...dropZoneProps}
          className={cn(
            'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-8 text-center transition-colors hover:bg-muted/50',
            dragOver && 'border-primary bg-primary/5',
          )}
        >
          <ImageUpIcon className="size-8 text-muted-foreground" aria-hidden="true" />
          <span className="text-sm font-medium">Click to choose an image or drop it here</span>
          <span className="text-xs text-muted-foreground">PNG, JPG or WEBP, max 10MB</span>
        </label>
      )}
      <input
        id={inputId}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/*"
        className="sr-only"
        aria-label="Product image"
        onChange={(e) => {
          pick(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <FormError>{error}</FormError>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
        <Button variant="brand" onClick={() => void submit()} disabled={!file || busy}>
          {busy ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          {busy ? 'Creating...' : 'Continue'}
        </Button>
      </DialogFooter>
    </>
  );
}
