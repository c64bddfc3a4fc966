import { LIMITS, MESSAGES, type HookPack } from '@hookreel/contracts';
import { CheckCircle2Icon, ImageIcon, Loader2Icon, PencilIcon, ScanSearchIcon, UploadIcon } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error';
import { errorDetail } from '@/lib/api-client';
import { useQueryClient } from '@tanstack/react-query';
import { TRANSPARENT_PHOTO_NOTE } from '@/components/product-upload-dialog';
import { CutoutReview } from '@/components/cutout-review';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Progress } from '@/components/ui/progress';
import { Textarea } from '@/components/ui/textarea';
import { useFileDrop } from '@/hooks/use-file-drop';
import { imageFileProblem } from '@/lib/image-file';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { useAcceptCutout } from '../../api/accept-cutout';
import { useCreateHookPack } from '../../api/create-hook-pack';
import { useDiscardDraftPack } from '../../api/discard-draft-pack';
import { usePolledJob } from '../../api/get-job';
import { hookPackKeys } from '../../api/keys';
import { useProcessProduct } from '../../api/process-product';
import { useUpdateHookPack } from '../../api/update-hook-pack';
import { useUploadProduct } from '../../api/upload-product';
import { suggestPackName } from '../../lib/pack-name';
import { validateProductDescription } from '../../lib/wizard';
import type { StepProps } from '../../lib/wizard-data';
import { StepFrame } from '../wizard-stepper';

/**
 * Step 1: choose the product image (creates the pack and uploads at once), analyse it, name the pack, optionally
 * edit details. A file the server would refuse is caught before anything is created; if the upload still fails,
 * the draft made for it is discarded and the step looks as it did before.
 */
export function UploadProductStep({
  pack,
  data,
  setData,
  advance,
  advancing,
  onCreated,
}: StepProps & { onCreated: (pack: HookPack) => void }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  // The chosen file's local preview while it uploads; it becomes the step's image only once the server took it.
  const [pending, setPending] = useState<string | null>(null);
  const [brokenSrc, setBrokenSrc] = useState<string | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  // null while the user has not typed a name: the suggestion follows the analysis until then.
  const [typedName, setTypedName] = useState<string | null>(null);
  const createPack = useCreateHookPack();
  const discard = useDiscardDraftPack();
  const upload = useUploadProduct();
  const process = useProcessProduct();
  const accept = useAcceptCutout();
  const job = usePolledJob(jobId);

  const analysisDone = job.data?.status === 'completed';
  const analysisFailed = job.data?.status === 'failed' || job.isError;
  const analyzing = process.isPending || (jobId !== null && !analysisDone && !analysisFailed);

  // The analysis finished: read the detected shape and category.
  useEffect(() => {
    if (analysisDone && pack) void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(pack.id) });
  }, [analysisDone, pack?.id, queryClient]); // eslint-disable-line react-hooks/exhaustive-deps

  const choose = async (file: File | undefined) => {
    if (!file) return;
    const problem = await imageFileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    setFileError(null);
    setJobId(null);
    const local = URL.createObjectURL(file);
    setPending(local);
    let target = pack;
    const created = !target;
    try {
      if (!target) target = await createPack.mutateAsync({ language: 'english', accent: 'american' });
    } catch (e) {
      URL.revokeObjectURL(local);
      setPending(null);
      toast.error(errorDetail(e, MESSAGES.hookPacks.createFailed));
      return;
    }
    try {
      await upload.mutateAsync({ hookPackId: target.id, file });
    } catch (e) {
      URL.revokeObjectURL(local);
      setPending(null);
      const message = errorDetail(e, MESSAGES.hookPacks.uploadFailed);
      setFileError(message);
      toast.error(message);
      // Nothing of this attempt stays behind: the draft made for it goes too.
      if (created) discard.mutate(target.id, { onError: (err) => console.error('Discarding the draft failed', err) });
      return;
    }
    setPending(null);
    setFileName(file.name);
    setData((d) => {
      if (d.product.imageUrl) URL.revokeObjectURL(d.product.imageUrl);
      return { ...d, product: { ...d.product, imageUrl: local } };
    });
    if (created) onCreated(target);
  };

  const analyze = () => {
    if (!pack?.product_url) {
      toast.error(MESSAGES.hookPacks.productUrlNotFound);
      return;
    }
    setJobId(null);
    process.mutate(pack.id, {
      onSuccess: setJobId,
      onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.generic)),
    });
  };

  const { dragOver, dropZoneProps } = useFileDrop((file) => void choose(file));

  const candidate = pending ?? data.product.imageUrl ?? staticUrl(pack?.product_url);
  const imageSrc = candidate && candidate !== brokenSrc ? candidate : null;
  const uploading = createPack.isPending || upload.isPending;
  const uploaded = Boolean(pack?.product_url) && !uploading;
  const shape = data.product.customShape || pack?.detected_shape;
  const category = data.product.customCategory || pack?.detected_category;
  const hasResult = Boolean(
    pack?.detected_shape || pack?.detected_category || data.product.customShape || data.product.customCategory,
  );
  const progress = job.data ? (analysisDone ? 100 : job.data.progress) : 0;
  const suggested = useMemo(
    () =>
      suggestPackName({
        productDetails: pack?.product_details,
        fileName,
        category,
        shape,
        date: pack ? new Date(pack.created_at) : new Date(),
      }),
    [pack, fileName, category, shape],
  );
  const storedName = pack?.name && pack.name.trim() ? pack.name : null;
  const nameValue = typedName ?? storedName ?? suggested;
  const check = uploaded && !analyzing ? (pack?.cutout_check ?? null) : null;
  // A cut-out that needs review is not spent on until the user accepts it or uploads another (decision 214).
  const cutoutBlocks = check?.verdict === 'needs-review' && !check.accepted;
  const continueStep = () => void advance({ name: nameValue.trim() || suggested });

  return (
    <StepFrame
      title="Upload Product"
      description={`Upload a clear photo of your product: facing forward, clean background, well-lit, no hands or people. ${TRANSPARENT_PHOTO_NOTE}`}
      onContinue={continueStep}
      continueDisabled={!uploaded || analyzing || editing || cutoutBlocks}
      busy={advancing}
    >
      <div className="grid gap-6 lg:grid-cols-2">
        <div>
          <label
            htmlFor={inputId}
            {...dropZoneProps}
            className={cn(
              'relative flex aspect-square cursor-pointer flex-col items-center justify-center gap-3 overflow-hidden rounded-xl border-2 border-dashed bg-muted/40 p-6 text-center transition-colors hover:bg-muted/70 focus-within:ring-[3px] focus-within:ring-ring/50',
              dragOver && 'border-primary bg-primary/5',
            )}
          >
            {imageSrc ? (
              <img
                src={imageSrc}
                alt="Product"
                className="absolute inset-0 size-full object-contain p-4"
                data-testid="product-image"
                onError={() => setBrokenSrc(imageSrc)}
              />
            ) : (
              <>
                <span className="flex size-12 items-center justify-center rounded-full bg-background text-muted-foreground shadow-sm">
                  <ImageIcon className="size-6" aria-hidden="true" />
                </span>
                <span className="font-medium">No product image yet</span>
                <span className="text-sm text-muted-foreground">Click to choose or drop an image here</span>
                <span className="text-xs text-muted-foreground">PNG, JPG or WEBP, max 10MB</span>
              </>
            )}
            {uploading ? (
              <span className="absolute inset-x-4 bottom-4 flex items-center justify-center gap-2 rounded-md bg-background/90 p-2 text-sm">
                <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> Uploading...
              </span>
            ) : null}
            <input
              ref={inputRef}
              id={inputId}
              type="file"
              accept="image/png,image/jpeg,image/webp,image/*"
              aria-label="Product image"
              className="sr-only"
              onChange={(e) => {
                void choose(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
          {fileError ? (
            <p role="alert" className="mt-2 text-sm font-medium text-destructive">
              {fileError}
            </p>
          ) : null}
          {imageSrc ? (
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="mt-3"
              onClick={() => inputRef.current?.click()}
              disabled={uploading}
            >
              <UploadIcon aria-hidden="true" /> Replace image
            </Button>
          ) : null}
        </div>

        <div className="space-y-4">
          {uploaded ? (
            <div className="grid gap-1.5 rounded-xl border p-4">
              <Label htmlFor={`${inputId}-name`}>Pack name</Label>
              <Input
                id={`${inputId}-name`}
                value={nameValue}
                maxLength={LIMITS.hookPackNameMax}
                onChange={(e) => setTypedName(e.target.value)}
                autoComplete="off"
              />
              <p className="text-xs text-muted-foreground">
                Shown in your hook pack list and in the names of the downloaded videos.
              </p>
            </div>
          ) : null}
          <div className="rounded-xl border p-4">
            <h3 className="mb-1 font-medium">Product analysis</h3>
            <p className="mb-4 text-sm text-muted-foreground">
              We cut the product out of its background and detect its shape and category, so it sits naturally in your
              characters&apos; hands.
            </p>
            {analyzing ? (
              <div className="space-y-2" aria-live="polite">
                <div className="flex justify-between text-sm">
                  <span className="flex items-center gap-2">
                    <Loader2Icon className="size-4 animate-spin" aria-hidden="true" /> Analyzing product...
                  </span>
                  <span className="tabular-nums" data-testid="analysis-progress">
                    {progress}%
                  </span>
                </div>
                <Progress value={progress} aria-label="Analysis progress" />
              </div>
            ) : (
              <Button type="button" onClick={analyze} disabled={!uploaded}>
                <ScanSearchIcon aria-hidden="true" /> {hasResult ? 'Analyze Again' : 'Analyze Product'}
              </Button>
            )}
            {analysisFailed ? (
              <p role="alert" className="mt-3 text-sm text-destructive">
                {job.data?.error || MESSAGES.hookPacks.generic}
              </p>
            ) : null}
          </div>

          {check && pack ? (
            <CutoutReview
              check={check}
              onReupload={() => inputRef.current?.click()}
              accepting={accept.isPending}
              onAccept={() =>
                accept.mutate(pack.id, {
                  onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.acceptCutoutFailed)),
                })
              }
            />
          ) : null}

          {hasResult && !analyzing ? (
            <section
              className="rounded-xl border bg-muted/30 p-4"
              data-testid="detected-result"
              aria-label="Detected product"
            >
              <div className="mb-3 flex items-center justify-between gap-2">
                <h3 className="flex items-center gap-2 font-medium">
                  <CheckCircle2Icon className="size-4 text-emerald-600" aria-hidden="true" /> Detected
                </h3>
                {!editing ? (
                  <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(true)}>
                    <PencilIcon aria-hidden="true" /> Edit Details
                  </Button>
                ) : null}
              </div>
              <dl className="grid grid-cols-2 gap-3 text-sm">
                {[
                  { key: 'shape', label: 'Shape', value: shape },
                  { key: 'category', label: 'Category', value: category },
                ].map(({ key, label, value }) => (
                  <div key={key}>
                    <dt id={`${inputId}-${key}`} className="text-muted-foreground">
                      {label}
                    </dt>
                    <dd aria-labelledby={`${inputId}-${key}`} className="font-medium capitalize">
                      {value || '—'}
                    </dd>
                  </div>
                ))}
              </dl>
              {pack?.product_details && !editing ? (
                <p className="mt-3 text-sm text-muted-foreground">{pack.product_details}</p>
              ) : null}
            </section>
          ) : uploaded && !analyzing && !editing ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(true)}>
              <PencilIcon aria-hidden="true" /> Edit Details
            </Button>
          ) : null}

          {editing && pack ? (
            <EditDetailsForm
              pack={pack}
              shape={shape ?? ''}
              category={category ?? ''}
              onDone={(custom) => {
                if (custom)
                  setData((d) => ({
                    ...d,
                    product: { ...d.product, customShape: custom.shape, customCategory: custom.category },
                  }));
                setEditing(false);
              }}
            />
          ) : null}
        </div>
      </div>
    </StepFrame>
  );
}

function EditDetailsForm({
  pack,
  shape: shape0,
  category: category0,
  onDone,
}: {
  pack: HookPack;
  shape: string;
  category: string;
  onDone: (custom: { shape: string; category: string } | null) => void;
}) {
  const [details, setDetails] = useState(pack.product_details ?? '');
  const [shape, setShape] = useState(shape0);
  const [category, setCategory] = useState(category0);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateHookPack();
  const save = () => {
    const problem = validateProductDescription(details);
    setError(problem);
    if (problem) return;
    update.mutate(
      { id: pack.id, product_details: details.trim() },
      {
        onSuccess: () => onDone({ shape: shape.trim(), category: category.trim() }),
        onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.generic)),
      },
    );
  };
  return (
    <div className="space-y-3 rounded-xl border p-4" role="group" aria-label="Edit product details">
      <div className="grid gap-1.5">
        <Label htmlFor="product-description">Product description</Label>
        <Textarea
          id="product-description"
          value={details}
          onChange={(e) => setDetails(e.target.value)}
          placeholder="e.g. Glow Serum, a vitamin C face serum in a 30 ml dropper bottle"
          aria-invalid={error ? true : undefined}
          rows={3}
        />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="grid gap-1.5">
          <Label htmlFor="product-shape">Shape</Label>
          <Input id="product-shape" value={shape} onChange={(e) => setShape(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="product-category">Category</Label>
          <Input id="product-category" value={category} onChange={(e) => setCategory(e.target.value)} />
        </div>
      </div>
      <FormError className="font-medium">{error}</FormError>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => onDone(null)}>
          Cancel
        </Button>
        <Button type="button" size="sm" onClick={save} disabled={update.isPending}>
          {update.isPending ? 'Saving...' : 'Save Details'}
        </Button>
      </div>
    </div>
  );
}
