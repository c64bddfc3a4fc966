import { Trash2Icon, UploadIcon } from 'lucide-react';
import { useRef } from 'react';
import { Button } from '@/components/ui/button';

/** A stored audio file's upload (or replace) and remove mutations, as the project and hook-pack hooks return them. */
export interface AudioFileMutations {
  upload: { mutateAsync: (file: File) => Promise<unknown>; isPending: boolean };
  remove: { mutateAsync: () => Promise<unknown>; isPending: boolean };
}

/**
 * "Upload {noun}" (or "Replace {noun}" when there is one) over a hidden file input, and "Remove {noun}". The
 * caller checks the picked file and says how it went.
 */
export function AudioFileButtons({
  noun,
  accept,
  present,
  uploading,
  uploadDisabled,
  removeDisabled,
  onFile,
  onRemove,
}: {
  noun: string;
  accept: string;
  present: boolean;
  uploading: boolean;
  uploadDisabled: boolean;
  removeDisabled: boolean;
  onFile: (file: File | undefined) => void;
  onRemove: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const label = present ? `Replace ${noun}` : `Upload ${noun}`;
  return (
    <div className="flex flex-wrap gap-2">
      <input
        ref={input}
        type="file"
        accept={accept}
        className="sr-only"
        aria-label={label}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          onFile(file);
        }}
        disabled={uploadDisabled}
      />
      <Button type="button" variant="outline" disabled={uploadDisabled} onClick={() => input.current?.click()}>
        <UploadIcon aria-hidden="true" />
        {uploading ? 'Uploading...' : label}
      </Button>
      {present ? (
        <Button
          type="button"
          variant="ghost"
          className="text-destructive hover:text-destructive"
          disabled={removeDisabled}
          onClick={onRemove}
        >
          <Trash2Icon aria-hidden="true" /> Remove {noun}
        </Button>
      ) : null}
    </div>
  );
}
