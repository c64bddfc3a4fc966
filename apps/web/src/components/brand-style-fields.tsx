import { CAPTION_FONT_INFO, CAPTION_FONTS, type CaptionFont } from '@hookreel/contracts';
import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';

/** A project's or pack's brand look: copied from the brand kit when it was created, changeable here. */
export interface BrandStyle {
  caption_font: CaptionFont;
  primary_colour: string;
  secondary_colour: string;
  outro: boolean;
}

const COLOURS = [
  { field: 'primary_colour', label: 'Brand colour' },
  { field: 'secondary_colour', label: 'Second colour' },
] as const;

/**
 * The brand look of one project or hook pack (the kit on /settings sets what new ones start with): caption font,
 * the two colours and the outro card. Each change is reported at once; the caller saves it.
 */
export function BrandStyleFields({
  value,
  onChange,
  disabled,
}: {
  value: BrandStyle;
  onChange: (patch: Partial<BrandStyle>) => void;
  disabled?: boolean;
}) {
  const ids = { font: useId(), primary_colour: useId(), secondary_colour: useId(), outro: useId() };
  return (
    <fieldset className="min-w-0 space-y-3" disabled={disabled} data-testid="brand-style-fields">
      <legend className="mb-2 text-sm leading-none font-medium">Brand look</legend>
      <div className="grid gap-4 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end">
        <div className="space-y-2">
          <Label htmlFor={ids.font}>Caption font</Label>
          <select
            id={ids.font}
            value={value.caption_font}
            onChange={(e) => onChange({ caption_font: e.target.value as CaptionFont })}
            className="h-9 w-full rounded-md border bg-transparent px-3 text-sm shadow-xs"
          >
            {CAPTION_FONTS.map((f) => (
              <option key={f} value={f}>
                {CAPTION_FONT_INFO[f].label}
              </option>
            ))}
          </select>
        </div>
        {COLOURS.map(({ field, label }) => (
          <div key={field} className="space-y-2">
            <Label htmlFor={ids[field]}>{label}</Label>
            <input
              id={ids[field]}
              type="color"
              value={value[field].toLowerCase()}
              onChange={(e) => onChange({ [field]: e.target.value.toUpperCase() })}
              className="block h-9 w-14 cursor-pointer rounded-md border bg-transparent p-1"
            />
          </div>
        ))}
        <div className="flex h-9 items-center gap-2">
          <Switch id={ids.outro} checked={value.outro} onCheckedChange={(outro) => onChange({ outro })} />
          <Label htmlFor={ids.outro}>Logo outro</Label>
        </div>
      </div>
    </fieldset>
  );
}
