import { CAPTION_STYLE_LABELS, CAPTION_STYLES, type CaptionStyle } from '@hookreel/contracts';
import { CheckIcon } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/utils';

/**
 * What each preset looks like in words, under its picture. The colours come from the project's or pack's brand
 * look (the brand kit's by default), so the hints name the colour's role, not a colour.
 */
export const CAPTION_STYLE_HINTS: Record<CaptionStyle, string> = {
  highlight: 'Up to 4 words; the spoken one lights up in the brand colour',
  pop: 'One big word at a time, popping in',
  boxed: 'Short lines, each on a box of the second colour',
  lower_third: 'Small left-aligned lines on a bar at the bottom',
};

/**
 * Preview pictures are frames drawn by the engine's own caption renderer (`npm run caption-previews`, see
 * docs/video-design.md#caption-styles), served from the web app's public folder.
 */
export const captionPreviewUrl = (style: CaptionStyle): string =>
  `${import.meta.env.BASE_URL}caption-styles/${style}.png`;

/**
 * The caption preset of a project or hook pack: one radio per style, each shown as its preview picture. Native
 * radios keep arrow-key moves and screen-reader announcements for free.
 */
export function CaptionStylePicker({
  value,
  onChange,
  disabled,
  label = 'Caption style',
  className,
  compact = false,
}: {
  value: CaptionStyle;
  onChange: (style: CaptionStyle) => void;
  disabled?: boolean;
  label?: string;
  className?: string;
  /** Two pictures a row, for a narrow side panel. */
  compact?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} disabled={disabled} data-testid="caption-style-picker">
      <legend className="mb-2 text-sm leading-none font-medium">{label}</legend>
      <div className={cn('grid grid-cols-2 gap-3', !compact && 'sm:grid-cols-4')}>
        {CAPTION_STYLES.map((style) => {
          const checked = style === value;
          return (
            <label
              key={style}
              className={cn(
                'group relative flex cursor-pointer flex-col overflow-hidden rounded-lg border bg-card text-left transition-shadow',
                'has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                checked ? 'border-primary ring-2 ring-primary' : 'hover:shadow-md',
              )}
            >
              <input
                type="radio"
                name={name}
                value={style}
                checked={checked}
                onChange={() => onChange(style)}
                className="sr-only"
              />
              <img
                src={captionPreviewUrl(style)}
                alt=""
                width={270}
                height={240}
                loading="lazy"
                className="aspect-[9/8] w-full bg-muted object-cover"
              />
              <span className="flex items-start justify-between gap-1 p-2">
                <span className="min-w-0">
                  <span className="block text-sm font-medium">{CAPTION_STYLE_LABELS[style]}</span>
                  <span className="block text-xs text-muted-foreground">{CAPTION_STYLE_HINTS[style]}</span>
                </span>
                {checked ? <CheckIcon className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" /> : null}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
