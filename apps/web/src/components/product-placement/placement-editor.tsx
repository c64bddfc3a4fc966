import { CANVAS, FRAME } from '@hookreel/contracts';
import { ImageOffIcon, Loader2Icon } from 'lucide-react';
import { useEffect, useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import {
  clampScale,
  clampToFrame,
  drawCover,
  drawProduct,
  framePoint,
  hitsProduct,
  normaliseRotation,
  type Placement,
} from './placement';
import type { ImageState } from './use-image';

export interface PlacementEditorProps {
  character: ImageState;
  product: ImageState;
  value: Placement;
  onChange: (next: Placement) => void;
  className?: string;
  /** CSS classes for the canvas box (sets the displayed size; the drawing is always 576x1024). */
  canvasClassName?: string;
}

/**
 * Interactive positioning of a product over a character in the 576x1024 frame: drag to move, wheel or the
 * slider to scale (CANVAS.productScaleMin..Max), slider to rotate. Keyboard: arrows move (Shift: faster),
 * +/- scale, [ and ] rotate.
 */
export function PlacementEditor({
  character,
  product,
  value,
  onChange,
  className,
  canvasClassName,
}: PlacementEditorProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drag = useRef<{ dx: number; dy: number; id: number } | null>(null);
  const valueRef = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    valueRef.current = value;
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    ctx.clearRect(0, 0, FRAME.width, FRAME.height);
    ctx.fillStyle = '#e4e4e7';
    ctx.fillRect(0, 0, FRAME.width, FRAME.height);
    if (character.image) drawCover(ctx, character.image, FRAME.width, FRAME.height);
    if (product.image) {
      drawProduct(ctx, product.image, value);
      const w = product.image.naturalWidth * value.scale;
      const h = product.image.naturalHeight * value.scale;
      ctx.save();
      ctx.translate(value.position_x, value.position_y);
      ctx.rotate((value.rotation * Math.PI) / 180);
      ctx.setLineDash([8, 6]);
      ctx.lineWidth = 2;
      ctx.strokeStyle = 'rgba(124, 58, 237, 0.9)';
      ctx.strokeRect(-w / 2, -h / 2, w, h);
      ctx.restore();
    }
  }, [character.image, product.image, value]);

  // Wheel scaling needs a non-passive listener to stop the page from scrolling.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const v = valueRef.current;
      onChangeRef.current({ ...v, scale: round(clampScale(v.scale * Math.exp(-e.deltaY * 0.0015)), 3) });
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const p = framePoint(e);
    const onProduct = product.image
      ? hitsProduct(value, { width: product.image.naturalWidth, height: product.image.naturalHeight }, p.x, p.y)
      : false;
    // Grabbing the product keeps the offset; pressing elsewhere moves it under the pointer.
    drag.current = onProduct
      ? { dx: value.position_x - p.x, dy: value.position_y - p.y, id: e.pointerId }
      : { dx: 0, dy: 0, id: e.pointerId };
    if (!onProduct) move(p.x, p.y);
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const move = (x: number, y: number) => {
    const c = clampToFrame(x, y);
    onChange({ ...value, position_x: Math.round(c.x), position_y: Math.round(c.y) });
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const p = framePoint(e);
    move(p.x + d.dx, p.y + d.dy);
  };
  const end = () => {
    drag.current = null;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLCanvasElement>) => {
    const step = e.shiftKey ? 20 : 4;
    const v = value;
    const keys: Record<string, () => Placement> = {
      ArrowLeft: () => ({ ...v, position_x: clampToFrame(v.position_x - step, 0).x }),
      ArrowRight: () => ({ ...v, position_x: clampToFrame(v.position_x + step, 0).x }),
      ArrowUp: () => ({ ...v, position_y: clampToFrame(0, v.position_y - step).y }),
      ArrowDown: () => ({ ...v, position_y: clampToFrame(0, v.position_y + step).y }),
      '+': () => ({ ...v, scale: round(clampScale(v.scale * 1.05), 3) }),
      '=': () => ({ ...v, scale: round(clampScale(v.scale * 1.05), 3) }),
      '-': () => ({ ...v, scale: round(clampScale(v.scale / 1.05), 3) }),
      '[': () => ({ ...v, rotation: normaliseRotation(v.rotation - 5) }),
      ']': () => ({ ...v, rotation: normaliseRotation(v.rotation + 5) }),
    };
    const next = keys[e.key];
    if (next) {
      e.preventDefault();
      onChange(next());
    }
  };

  const loading = character.status === 'loading' || product.status === 'loading';
  const failed = character.status === 'error' || product.status === 'error';

  return (
    <div className={cn('flex flex-col items-center gap-4', className)}>
      <div
        className={cn(
          'relative aspect-[9/16] h-[min(60vh,640px)] overflow-hidden rounded-lg border bg-muted',
          canvasClassName,
        )}
      >
        <canvas
          ref={canvasRef}
          width={FRAME.width}
          height={FRAME.height}
          tabIndex={0}
          role="img"
          aria-label="Product placement. Drag to move, scroll to scale; arrow keys move, plus and minus scale, brackets rotate."
          data-testid="placement-canvas"
          className="size-full cursor-move touch-none outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={end}
          onPointerCancel={end}
          onKeyDown={onKeyDown}
        />
        {loading ? (
          <span className="absolute inset-0 flex items-center justify-center bg-background/50">
            <Loader2Icon className="size-6 animate-spin" aria-label="Loading images" />
          </span>
        ) : failed ? (
          <span className="absolute inset-x-2 bottom-2 flex items-center gap-2 rounded-md bg-background/90 p-2 text-xs text-destructive">
            <ImageOffIcon className="size-4" aria-hidden="true" /> An image could not be loaded.
          </span>
        ) : null}
      </div>
      <div className="grid w-full max-w-sm gap-3">
        <div className="grid gap-1.5">
          <div className="flex justify-between text-sm">
            <Label htmlFor="placement-scale">Scale</Label>
            <span className="text-muted-foreground tabular-nums">{value.scale.toFixed(2)}</span>
          </div>
          <input
            id="placement-scale"
            type="range"
            min={CANVAS.productScaleMin}
            max={CANVAS.productScaleMax}
            step={0.01}
            value={value.scale}
            onChange={(e) => onChange({ ...value, scale: clampScale(Number(e.target.value)) })}
            className="w-full accent-primary"
          />
        </div>
        <div className="grid gap-1.5">
          <div className="flex justify-between text-sm">
            <Label htmlFor="placement-rotation">Rotation</Label>
            <span className="text-muted-foreground tabular-nums">{Math.round(value.rotation)}°</span>
          </div>
          <input
            id="placement-rotation"
            type="range"
            min={-180}
            max={180}
            step={1}
            value={value.rotation}
            onChange={(e) => onChange({ ...value, rotation: Number(e.target.value) })}
            className="w-full accent-primary"
          />
        </div>
      </div>
    </div>
  );
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;
