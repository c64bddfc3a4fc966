import { CheckIcon, CopyIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/textarea';
import { Label } from '@/components/ui/label';

/** A secret the server shows only once (an API key, a signing secret), with a copy button and a way to close it. */
export function SecretOnce({
  label,
  value,
  notice,
  onDone,
}: {
  label: string;
  value: string;
  notice: string;
  onDone: () => void;
}) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): the field stays selectable.
      setCopied(false);
    }
  };
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40">
      <Label htmlFor={id}>{label}</Label>
      <p className="text-sm text-amber-900 dark:text-amber-200">{notice}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        {/* A text area, not an input: single-line inputs clip the underscores of monospace keys in Chromium. */}
        <Textarea
          id={id}
          value={value}
          readOnly
          rows={2}
          className="min-h-0 resize-none font-mono text-sm break-all"
          onFocus={(e) => e.target.select()}
        />
        <div className="flex shrink-0 gap-2">
          <Button type="button" variant="outline" onClick={copy}>
            {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button type="button" onClick={onDone}>
            Done
          </Button>
        </div>
      </div>
    </div>
  );
}
