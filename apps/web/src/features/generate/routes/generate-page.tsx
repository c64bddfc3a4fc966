import { CANVAS, MESSAGES } from '@hookreel/contracts';
import { DownloadIcon, RotateCcwIcon, SparklesIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Page, PageHeader } from '@/components/layout/page';
import {
  defaultPlacement,
  MaskError,
  type Placement,
  PlacementEditor,
  renderMask,
  useImage,
} from '@/components/product-placement';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useRemoteImage } from '../api/remote-image';

/** /generate: content generator demo — place a product image over a character image. */
export function GeneratePage() {
  const [characterUrl, setCharacterUrl] = useState('');
  const [productUrl, setProductUrl] = useState('');
  const [placement, setPlacement] = useState<Placement>(() => defaultPlacement());
  const [maskUrl, setMaskUrl] = useState<string | null>(null);
  // Pasted addresses are fetched by the server (SSRF-guarded) and shown from our origin.
  const characterSource = useRemoteImage(characterUrl);
  const productSource = useRemoteImage(productUrl);
  const character = useImage(characterSource.src);
  const product = useImage(productSource.src);

  useEffect(() => () => void (maskUrl && URL.revokeObjectURL(maskUrl)), [maskUrl]);

  const makeMask = async () => {
    if (!product.image) return;
    const id = toast.loading(MESSAGES.masks.generating);
    try {
      const file = await renderMask(product.image, placement);
      setMaskUrl(URL.createObjectURL(file));
      toast.success(MESSAGES.masks.generated, { id });
    } catch (e) {
      toast.error(e instanceof MaskError ? e.message : MESSAGES.masks.failed, { id });
    }
  };

  return (
    <Page className="max-w-6xl">
      <PageHeader
        title="Content Generator"
        description="Try product placement: paste the address of a character image and of a product image (PNG, JPG or WEBP, up to 10MB), then drag, scale and rotate."
        actions={
          <Button variant="outline" onClick={() => toast.info(MESSAGES.masks.aiComingSoon)}>
            <SparklesIcon aria-hidden="true" /> Generate with AI
          </Button>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
        <Card className="h-fit">
          <CardContent className="space-y-4">
            <ImageUrlField
              id="character-url"
              label="Character image URL"
              placeholder="https://…/character.png"
              value={characterUrl}
              onChange={setCharacterUrl}
              error={characterSource.error ?? (character.status === 'error' ? MESSAGES.masks.imageLoadFailed : null)}
              fetching={characterSource.fetching}
            />
            <ImageUrlField
              id="product-url"
              label="Product image URL"
              placeholder="https://…/product.png"
              value={productUrl}
              onChange={setProductUrl}
              error={productSource.error ?? (product.status === 'error' ? MESSAGES.masks.imageLoadFailed : null)}
              fetching={productSource.fetching}
            />
            <dl className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 text-xs tabular-nums">
              <dt className="text-muted-foreground">Position</dt>
              <dd>
                {placement.position_x}, {placement.position_y}
              </dd>
              <dt className="text-muted-foreground">Scale</dt>
              <dd>{placement.scale.toFixed(2)}</dd>
              <dt className="text-muted-foreground">Rotation</dt>
              <dd>{Math.round(placement.rotation)}°</dd>
            </dl>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={() => setPlacement(defaultPlacement())}>
                <RotateCcwIcon aria-hidden="true" /> Reset
              </Button>
              <Button size="sm" onClick={() => void makeMask()} disabled={!product.image}>
                Generate mask
              </Button>
            </div>
            {maskUrl ? (
              <div className="space-y-2">
                <img
                  src={maskUrl}
                  alt="Generated mask"
                  className="mx-auto h-48 rounded border bg-black object-contain"
                />
                <Button variant="outline" size="sm" asChild className="w-full">
                  <a href={maskUrl} download={CANVAS.maskFileName}>
                    <DownloadIcon aria-hidden="true" /> Download {CANVAS.maskFileName}
                  </a>
                </Button>
              </div>
            ) : null}
          </CardContent>
        </Card>
        <PlacementEditor character={character} product={product} value={placement} onChange={setPlacement} />
      </div>
    </Page>
  );
}

/**
 * A URL input for one of the demo's images, with what went wrong (the server's reason when it refused to fetch
 * the address) shown beside it.
 */
function ImageUrlField(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  fetching: boolean;
}) {
  const hint = `${props.id}-hint`;
  return (
    <div className="space-y-2">
      <Label htmlFor={props.id}>{props.label}</Label>
      <Input
        id={props.id}
        type="url"
        placeholder={props.placeholder}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? hint : undefined}
      />
      {props.error ? (
        <p id={hint} role="alert" className="text-xs text-destructive">
          {props.error}
        </p>
      ) : props.fetching && props.value.trim() ? (
        <p className="text-xs text-muted-foreground">Fetching the image…</p>
      ) : null}
    </div>
  );
}
