import type { CutoutCheck } from '@hookreel/contracts';
import { AlertTriangleIcon, CheckCircle2Icon, SparklesIcon, UploadIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';

/** A checkerboard behind the cut-out, so what is transparent reads as transparent (not as white). */
const CHECKERBOARD = {
  backgroundColor: '#ffffff',
  backgroundImage: 'repeating-conic-gradient(#d4d4d8 0% 25%, #ffffff 0% 50%)',
  backgroundSize: '16px 16px',
} as const;

/**
 * The product cut-out as every video will use it, on a checkerboard, with its check (decision 214). A cut-out
 * that needs review says why and offers to upload another photo or to use it as it is; nothing that uses the
 * product can be paid for until one of the two happens.
 */
export function CutoutReview({
  check,
  onReupload,
  reuploadLabel = 'Upload another photo',
  onAccept,
  accepting = false,
  className,
}: {
  check: CutoutCheck;
  onReupload: () => void;
  reuploadLabel?: string;
  onAccept: () => void;
  accepting?: boolean;
  className?: string;
}) {
  const review = check.verdict === 'needs-review' && !check.accepted;
  return (
    <section
      className={cn(
        'grid gap-3 rounded-xl border p-4 sm:grid-cols-[8rem_1fr]',
        review ? 'border-amber-500 bg-amber-50 dark:bg-amber-950/30' : 'bg-muted/30',
        className,
      )}
      aria-label="Product cut-out"
      data-testid="cutout-review"
      data-verdict={check.verdict}
    >
      <img
        src={staticUrl(check.cutout_url)}
        alt="Product cut-out preview on a checkerboard"
        className="aspect-square w-32 rounded-md border object-contain"
        style={CHECKERBOARD}
        data-testid="cutout-preview"
      />
      <div className="space-y-2 text-sm">
        {review ? (
          <div role="alert" data-testid="cutout-warning" className="space-y-2">
            <h3 className="flex items-center gap-2 font-medium text-amber-900 dark:text-amber-200">
              <AlertTriangleIcon className="size-4" aria-hidden="true" /> Check the cut-out before you go on
            </h3>
            <ul className="list-disc space-y-1 pl-5">
              {check.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
            <p className="text-muted-foreground">
              This is the product exactly as it will appear in every video. Upload a clearer photo (plain background,
              the whole product in frame), or use this cut-out as it is.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" onClick={onReupload}>
                <UploadIcon aria-hidden="true" /> {reuploadLabel}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={onAccept} disabled={accepting}>
                {accepting ? 'Saving...' : 'Use this cut-out anyway'}
              </Button>
            </div>
          </div>
        ) : (
          <>
            <h3 className="flex items-center gap-2 font-medium">
              {check.verdict === 'cleaned' ? (
                <SparklesIcon className="size-4 text-emerald-600" aria-hidden="true" />
              ) : (
                <CheckCircle2Icon className="size-4 text-emerald-600" aria-hidden="true" />
              )}
              {check.verdict === 'needs-review'
                ? 'Cut-out accepted as it is'
                : check.verdict === 'cleaned'
                  ? 'Cut-out cleaned'
                  : 'Cut-out looks clean'}
            </h3>
            {check.fixed.length ? (
              <p className="text-muted-foreground">We {check.fixed.join(', ')}.</p>
            ) : check.verdict === 'clean' ? (
              <p className="text-muted-foreground">No stray patches, edge bars or holes found.</p>
            ) : null}
          </>
        )}
      </div>
    </section>
  );
}
