import { ImageIcon, Loader2Icon, XIcon } from 'lucide-react';
import { VALIDATION } from '@hookreel/contracts';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';

/**
 * 'Upload Avatar Images': the picked files, each removable; Cancel and close are blocked while uploading. Avatars
 * show real people, so the uploader confirms their consent before Upload is enabled (the server refuses uploads
 * without it, decision 121).
 */
export function UploadAvatarsDialog({
  open,
  files,
  uploading,
  onRemove,
  onCancel,
  onUpload,
}: {
  open: boolean;
  files: File[];
  uploading: boolean;
  onRemove: (index: number) => void;
  onCancel: () => void;
  onUpload: () => void;
}) {
  const previews = useMemo(
    () => files.map((f) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(f) : '')),
    [files],
  );
  useEffect(() => () => previews.forEach((u) => u && URL.revokeObjectURL(u)), [previews]);
  const [consent, setConsent] = useState(false);
  // A new batch of files asks again: the box clears when the dialog closes (state adjusted during render).
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setConsent(false);
  }

  return (
    <TitledDialog
      open={open}
      onOpenChange={(o) => !o && onCancel()}
      busy={uploading}
      className="sm:max-w-2xl"
      title="Upload Avatar Images"
      description={files.length === 0 ? 'No files selected' : `${files.length} file(s) selected`}
    >
      {files.length > 0 ? (
        <ul className="grid max-h-[50vh] grid-cols-3 gap-3 overflow-y-auto p-1 sm:grid-cols-4">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`} data-testid="upload-file" className="relative overflow-hidden rounded-lg border">
              <div className="relative aspect-[9/16] bg-muted">
                {previews[i] ? (
                  <img src={previews[i]} alt="" className="absolute inset-0 size-full object-cover" />
                ) : (
                  <ImageIcon className="absolute inset-0 m-auto size-6 text-muted-foreground" aria-hidden="true" />
                )}
              </div>
              <p className="truncate px-2 py-1 text-xs" title={f.name}>
                {f.name}
              </p>
              <button
                type="button"
                aria-label={`Remove ${f.name}`}
                onClick={() => onRemove(i)}
                disabled={uploading}
                className="absolute top-1 right-1 flex size-6 items-center justify-center rounded-full bg-black/60 text-white outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
              >
                <XIcon className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4 accent-primary"
          checked={consent}
          disabled={uploading}
          onChange={(e) => setConsent(e.target.checked)}
        />
        <span>I have the consent of every person in these photos to use their likeness in ads.</span>
      </label>
      {files.length > 0 && !consent ? (
        <p className="text-xs text-muted-foreground">{VALIDATION.avatarConsentRequired}</p>
      ) : null}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={uploading}>
          Cancel
        </Button>
        <Button onClick={onUpload} disabled={files.length === 0 || uploading || !consent}>
          {uploading ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
          {uploading ? 'Uploading...' : `Upload ${files.length} Avatar(s)`}
        </Button>
      </DialogFooter>
    </TitledDialog>
  );
}
