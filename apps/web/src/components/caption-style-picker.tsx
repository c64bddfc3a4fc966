import { CAPTION_STYLE_LABELS, CAPTION_STYLES, type CaptionStyle } from '@hookreel/contracts';
import { RadioCards } from '@/components/radio-card';
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
  return (
    <fieldset className={cn('min-w-0 space-y-2', className)} disabled={disabled} data-testid="caption-style-picker">
      <legend className="mb-2 text-sm leading-none font-medium">{label}</legend>
      <RadioCards
        className={cn('grid grid-cols-2 gap-3', !compact && 'sm:grid-cols-4')}
        options={CAPTION_STYLES}
        value={value}
        onChange={onChange}
        face={(style) => ({
          title: CAPTION_STYLE_LABELS[style],
          hint: CAPTION_STYLE_HINTS[style],
          media: (
            <img
              src={captionPreviewUrl(style)}
              alt=""
              width={270}
              height={240}
              loading="lazy"
              className="aspect-[9/8] w-full bg-muted object-cover"
            />
          ),
        })}
      />
    </fieldset>
  );
}
