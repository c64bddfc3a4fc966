import {
  VIDEO_QUALITIES,
  VIDEO_QUALITY_LABELS,
  VOICE_SPEED,
  creditsLabel,
  type ModeAvailability,
  type VideoQuality,
} from '@hookreel/contracts';
import { useCallback, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { RadioCards } from '@/components/radio-card';
import { cn } from '@/lib/utils';

/**
 * Draft or Realistic for a project's or pack's videos, each with its price per video before anything is spent.
 * Realistic is disabled, with the server's reasons, when its providers are not configured (GET /api/capabilities).
 */
export function RenderQualityPicker({
  value,
  onChange,
  prices,
  availability,
  disabled,
  className,
}: {
  value: VideoQuality;
  onChange: (quality: VideoQuality) => void;
  /** Credits per video in each quality; null while the price list loads. */
  prices: Record<VideoQuality, number> | null;
  /** Whether Realistic can run here; null while loading (Realistic stays disabled). */
  availability: ModeAvailability | null;
  disabled?: boolean;
  className?: string;
}) {
  const reasonId = useId();
  const realisticOff = !availability?.available;
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} disabled={disabled} data-testid="render-quality-picker">
      <legend className="mb-2 text-sm leading-none font-medium">Quality</legend>
      <RadioCards
        className="grid gap-3 sm:grid-cols-2"
        options={VIDEO_QUALITIES}
        value={value}
        onChange={onChange}
        face={(quality) => {
          const off = quality === 'realistic' && realisticOff;
          return {
            disabled: off,
            describedBy: off ? reasonId : undefined,
            title: (
              <>
                {VIDEO_QUALITY_LABELS[quality].name}
                <span data-testid={`price-${quality}`} className="ml-2 font-normal text-muted-foreground tabular-nums">
                  {prices ? `${creditsLabel(prices[quality])} per video` : '…'}
                </span>
              </>
            ),
            hint: VIDEO_QUALITY_LABELS[quality].hint,
          };
        }}
      />
      {realisticOff && availability ? (
        <div id={reasonId} className="text-xs text-muted-foreground" data-testid="realistic-unavailable">
          <p>Realistic is not available on this server. Ask the operator to configure the providers:</p>
          <ul className="mt-1 list-disc pl-5">
            {availability.missing.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}

/** How long after the last release (pointer up, key up, change) the slider waits before saving. */
export const VOICE_SPEED_COMMIT_MS = 300;

/**
 * Voice speed, 0.8x–1.2x, in 0.05 steps: a native range input, its value read out as "1.10x".
 * `onChange` follows every step while dragging (for the readout and prices); `onCommit` is called once the user
 * lets go (pointer up, key up or the native change event), debounced, so a drag across the range is one save
 * instead of one per step; the caller skips a commit of the value it already stored. A release still pending
 * when the slider unmounts is committed then.
 */
export function VoiceSpeedSlider({
  value,
  onChange,
  onCommit,
  disabled,
}: {
  value: number;
  onChange: (speed: number) => void;
  onCommit: (speed: number) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const latest = useRef({ value, onCommit });
  // The latest value and callback for a commit that fires after this render (a timer, a native listener).
  useLayoutEffect(() => {
    latest.current = { value, onCommit };
  }, [value, onCommit]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const commitNow = useCallback(() => {
    timer.current = null;
    latest.current.onCommit(latest.current.value);
  }, []);
  const scheduleCommit = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(commitNow, VOICE_SPEED_COMMIT_MS);
  }, [commitNow]);

  // React's onChange is the input event (every step); the native change event fires when the drag ends.
  useEffect(() => {
    const el = inputRef.current;
    el?.addEventListener('change', scheduleCommit);
    return () => el?.removeEventListener('change', scheduleCommit);
  }, [scheduleCommit]);

  useEffect(
    () => () => {
      if (timer.current) {
        clearTimeout(timer.current);
        commitNow();
      }
    },
    [commitNow],
  );

  return (
    <div className="space-y-2">
      <div className="flex items-center justify-between">
        <label htmlFor={id} className="text-sm leading-none font-medium">
          Voice speed
        </label>
        <span className="text-xs text-muted-foreground tabular-nums">{value.toFixed(2)}x</span>
      </div>
      <input
        ref={inputRef}
        id={id}
        type="range"
        min={VOICE_SPEED.min}
        max={VOICE_SPEED.max}
        step={VOICE_SPEED.step}
        value={value}
        disabled={disabled}
        aria-valuetext={`${value.toFixed(2)}x`}
        onChange={(e) => {
          const next = Math.round(Number(e.target.value) * 100) / 100;
          latest.current.value = next;
          onChange(next);
        }}
        onPointerUp={scheduleCommit}
        onKeyUp={scheduleCommit}
        className="w-full accent-primary"
        data-testid="voice-speed"
      />
    </div>
  );
}
