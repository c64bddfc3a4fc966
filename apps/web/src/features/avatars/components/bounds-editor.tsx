import { BOUNDS_EDITOR, FRAME } from '@hookreel/contracts';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { drawCover, framePoint, useImage } from '@/components/product-placement';
import {
  type Box,
  corners,
  handlePoint,
  type Hit,
  hitTest,
  moveBox,
  RESIZE_HANDLES,
  type ResizeHandle,
  resizeBox,
  rotateTowards,
  rotationHandlePoint,
} from '../lib/bounds-geometry';

type Mode =
  | { kind: 'idle' }
  | { kind: 'dragging'; last: { x: number; y: number } }
  | { kind: 'resizing'; handle: ResizeHandle }
  | { kind: 'rotating' };

const CURSORS: Record<ResizeHandle, string> = {
  nw: 'nwse-resize',
  se: 'nwse-resize',
  ne: 'nesw-resize',
  sw: 'nesw-resize',
  n: 'ns-resize',
  s: 'ns-resize',
  e: 'ew-resize',
  w: 'ew-resize',
};
const cursorFor = (hit: Hit) =>
  !hit ? 'default' : hit.kind === 'rotate' ? 'grab' : hit.kind === 'move' ? 'move' : CURSORS[hit.handle];

/**
 * The 576x1024 bounds editor: drag the box to move it, one of the 8 handles to resize it, the top handle to
 * rotate it. Releasing the pointer or leaving the canvas returns to idle.
 */
export function BoundsEditor({
  imageUrl,
  value,
  onChange,
}: {
  imageUrl: string | undefined;
  value: Box;
  onChange: (b: Box) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const image = useImage(imageUrl);
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [cursor, setCursor] = useState('default');

  useEffect(() => {
    const ctx = canvasRef.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, FRAME.width, FRAME.height);
    ctx.fillStyle = '#e4e4e7';
    ctx.fillRect(0, 0, FRAME.width, FRAME.height);
    if (image.image) drawCover(ctx, image.image, FRAME.width, FRAME.height);
    const cs = corners(value);
    ctx.beginPath();
    cs.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
    ctx.closePath();
    ctx.fillStyle = 'rgba(59, 130, 246, 0.2)';
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = 'rgb(59, 130, 246)';
    ctx.stroke();
    // rotation handle and its stem
    const top = handlePoint(value, 'n');
    const rot = rotationHandlePoint(value);
    ctx.beginPath();
    ctx.moveTo(top.x, top.y);
    ctx.lineTo(rot.x, rot.y);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(rot.x, rot.y, BOUNDS_EDITOR.rotationHandleRadius, 0, Math.PI * 2);
    ctx.fillStyle = '#ffffff';
    ctx.fill();
    ctx.stroke();
    const s = BOUNDS_EDITOR.handleSize;
    for (const h of RESIZE_HANDLES) {
      const p = handlePoint(value, h);
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(p.x - s / 2, p.y - s / 2, s, s);
      ctx.strokeRect(p.x - s / 2, p.y - s / 2, s, s);
    }
  }, [image.image, value]);

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const p = framePoint(e);
    const hit = hitTest(value, p);
    if (!hit) return;
    e.preventDefault();
    if (hit.kind === 'rotate') setMode({ kind: 'rotating' });
    else if (hit.kind === 'resize') setMode({ kind: 'resizing', handle: hit.handle });
    else setMode({ kind: 'dragging', last: p });
  };
  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const p = framePoint(e);
    if (mode.kind === 'idle') {
      setCursor(cursorFor(hitTest(value, p)));
    } else if (mode.kind === 'dragging') {
      onChange(moveBox(value, p.x - mode.last.x, p.y - mode.last.y));
      setMode({ kind: 'dragging', last: p });
    } else if (mode.kind === 'resizing') {
      onChange(resizeBox(value, mode.handle, p));
    } else {
      onChange(rotateTowards(value, p));
    }
  };
  const idle = () => setMode({ kind: 'idle' });

  return (
    <div className="flex flex-col items-center gap-3">
      <div className="relative aspect-[9/16] h-[min(62vh,640px)] max-w-full overflow-hidden rounded-lg border bg-muted">
        <canvas
          ref={canvasRef}
          width={FRAME.width}
          height={FRAME.height}
          data-testid="bounds-canvas"
          data-mode={mode.kind}
          aria-label="Avatar bounds editor"
          role="img"
          className="size-full touch-none select-none"
          style={{ cursor: mode.kind === 'rotating' ? 'grabbing' : cursor }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={idle}
          onPointerLeave={idle}
          onPointerCancel={idle}
        />
      </div>
      <p className="text-xs text-muted-foreground">Drag to move • Drag corners to resize • Drag top handle to rotate</p>
      <p className="flex gap-4 text-sm tabular-nums" aria-live="polite">
        <span>
          Size: {Math.round(value.width)} × {Math.round(value.height)}
        </span>
        <span>Rotation: {Math.round(value.rotation)}°</span>
      </p>
    </div>
  );
}
