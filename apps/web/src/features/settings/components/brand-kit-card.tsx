import {
  AI_LABEL_MODE_INFO,
  AI_LABEL_MODES,
  AI_LABEL_TEXT,
  BRAND_KIT_LIMITS,
  BRAND_KIT_MESSAGES,
  CAPTION_FONT_INFO,
  CAPTION_FONTS,
  CTA_MAX,
  textColourOn,
  type AiLabelMode,
  type BrandKit,
  type CaptionFont,
  type CaptionStyle,
} from '@hookreel/contracts';
import { ImageUpIcon, Loader2Icon, PaletteIcon, Trash2Icon } from 'lucide-react';
import { useId, useRef, useState, type CSSProperties } from 'react';
import { toast } from 'sonner';
import { CaptionStylePicker } from '@/components/caption-style-picker';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { useFileDrop } from '@/hooks/use-file-drop';
import { errorDetail } from '@/lib/api-client';
import { sniffImage } from '@/lib/image-file';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { fontFileUrl, useBrandKit, useDeleteLogo, useSaveBrandKit, useUploadLogo } from '../api/brand-kit';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The editable part of the kit (the logo is saved as soon as it is dropped). */
interface Draft {
  primary_colour: string;
  secondary_colour: string;
  caption_font: CaptionFont;
  caption_style: CaptionStyle;
  cta_text: string;
  outro: boolean;
  ai_label: AiLabelMode;
}
/** The two colours of the kit, as their fields say them. */
const COLOURS = [
  { field: 'primary_colour', label: 'Brand colour', hint: 'Highlighted words and the CTA button' },
  { field: 'secondary_colour', label: 'Second colour', hint: 'Caption boxes and the outro card' },
] as const;

const draftOf = (kit: BrandKit): Draft => ({
  primary_colour: kit.primary_colour,
  secondary_colour: kit.secondary_colour,
  caption_font: kit.caption_font,
  caption_style: kit.caption_style,
  cta_text: kit.cta_text ?? '',
  outro: kit.outro,
  ai_label: kit.ai_label,
});

/** The preview draws with the font files the engine uses, under names of their own so no local font stands in. */
const previewFamily = (font: CaptionFont) => `"hookreel-${font}", ${CAPTION_FONT_INFO[font].cssStack}`;
function FontFaces() {
  const css = CAPTION_FONTS.map(
    (f) =>
      `@font-face{font-family:"hookreel-${f}";src:url("${fontFileUrl(f)}") format("truetype");font-weight:700;font-display:swap}`,
  ).join('\n');
  return <style>{css}</style>;
}

/** Why the browser should not send a logo, or null: PNG or WEBP by its first bytes, within the upload cap. */
async function logoProblem(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const type = sniffImage(head);
  return type === 'png' || type === 'webp' ? null : BRAND_KIT_MESSAGES.logoType;
}

/**
 * The brand kit on /settings: logo, two colours, caption font, default caption style and CTA, the outro card,
 * and a live preview of how a video will look. New projects and hook packs start from what is saved here.
 */
export function BrandKitCard() {
  const kit = useBrandKit();
  const save = useSaveBrandKit();
  const upload = useUploadLogo();
  const removeLogo = useDeleteLogo();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [savedKit, setSavedKit] = useState<BrandKit | null>(null);
  // Follow the server's kit when it changes (first load, a save, a logo change) unless the form has edits.
  if (kit.data && kit.data !== savedKit) {
    const outroChanged = savedKit && kit.data.outro !== savedKit.outro;
    setSavedKit(kit.data);
    if (!draft) setDraft(draftOf(kit.data));
    else if (outroChanged) setDraft({ ...draft, outro: kit.data.outro });
  }
  const fileRef = useRef<HTMLInputElement>(null);
  const ids = {
    primary_colour: useId(),
    secondary_colour: useId(),
    cta: useId(),
    outro: useId(),
    font: useId(),
  };

  const pickLogo = async (file: File | undefined) => {
    if (!file) return;
    const problem = await logoProblem(file);
    if (problem) {
      toast.error(problem);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success('Logo saved'),
      onError: (err) => toast.error(errorDetail(err, BRAND_KIT_MESSAGES.logoType)),
    });
  };
  const { dragOver, dropZoneProps } = useFileDrop((f) => void pickLogo(f));

  if (!kit.data || !draft) {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Brand kit</CardTitle>
          <CardDescription>{kit.isError ? 'The brand kit could not be loaded.' : 'Loading…'}</CardDescription>
        </CardHeader>
      </Card>
    );
  }
  const logoUrl = staticUrl(kit.data.logo_url);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const coloursOk = HEX.test(draft.primary_colour) && HEX.test(draft.secondary_colour);
  const ctaOk = draft.cta_text.trim().length <= CTA_MAX;
  const dirty = JSON.stringify(draft) !== JSON.stringify(draftOf(kit.data));

  const onSave = () => {
    save.mutate(
      { ...draft, cta_text: draft.cta_text.trim() || null },
      {
        onSuccess: (saved) => {
          setDraft(draftOf(saved));
          toast.success('Brand kit saved. New projects and hook packs will use it.');
        },
        onError: (err) => toast.error(errorDetail(err, 'The brand kit could not be saved')),
      },
    );
  };

  return (
    <Card data-testid="brand-kit-card">
      <FontFaces />
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <PaletteIcon className="size-5" aria-hidden="true" />
          Brand kit
        </CardTitle>
        <CardDescription>
          Your logo, colours and caption font. Every new project and hook pack starts with them; you can still change
          each one.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="grid gap-6 md:grid-cols-[1fr_auto]">
          <div className="min-w-0 space-y-5">
            <div className="space-y-2">
              <span className="text-sm leading-none font-medium">Logo</span>
              <div
                {...dropZoneProps}
                data-testid="logo-drop"
                className={cn(
                  'flex items-center gap-4 rounded-lg border border-dashed p-3 transition-colors',
                  dragOver ? 'border-primary bg-primary/5' : 'border-border',
                )}
              >
                <div
                  className="flex size-16 shrink-0 items-center justify-center rounded-md border bg-[conic-gradient(#eee_25%,#fff_0_50%,#eee_0_75%,#fff_0)] bg-[length:12px_12px]"
                  aria-hidden={!logoUrl}
                >
                  {logoUrl ? (
                    <img src={logoUrl} alt="Your logo" className="max-h-14 max-w-14 object-contain" />
                  ) : (
                    <ImageUpIcon className="size-6 text-muted-foreground" aria-hidden="true" />
                  )}
                </div>
                <div className="min-w-0 flex-1 text-sm">
                  <p className="text-muted-foreground">Drop a PNG or WEBP here, ideally on a transparent background.</p>
                  <div className="mt-2 flex flex-wrap gap-2">
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => fileRef.current?.click()}
                      disabled={upload.isPending}
                    >
                      {upload.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
                      {logoUrl ? 'Replace logo' : 'Choose logo'}
                    </Button>
                    {logoUrl ? (
                      <Button
                        type="button"
                        size="sm"
                        variant="ghost"
                        onClick={() =>
                          removeLogo.mutate(undefined, {
                            onError: (err) => toast.error(errorDetail(err, 'The logo could not be removed')),
                          })
                        }
                        disabled={removeLogo.isPending}
                      >
                        <Trash2Icon aria-hidden="true" />
                        Remove
                      </Button>
                    ) : null}
                  </div>
                </div>
                <input
                  ref={fileRef}
                  type="file"
                  accept={BRAND_KIT_LIMITS.logoAccept}
                  className="sr-only"
                  aria-label="Logo file"
                  data-testid="logo-input"
                  onChange={(e) => {
                    void pickLogo(e.target.files?.[0]);
                    e.target.value = '';
                  }}
                />
              </div>
            </div>

            <div className="grid gap-4 sm:grid-cols-2 md:grid-cols-1">
              {COLOURS.map(({ field, label, hint }) => (
                <ColourField
                  key={field}
                  id={ids[field]}
                  label={label}
                  hint={hint}
                  value={draft[field]}
                  onChange={(v) => set({ [field]: v })}
                />
              ))}
            </div>
          </div>

          <BrandPreview draft={draft} logoUrl={logoUrl} />
        </div>

        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm leading-none font-medium">Caption font</legend>
          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4" role="radiogroup" aria-label="Caption font">
            {CAPTION_FONTS.map((font) => {
              const checked = draft.caption_font === font;
              return (
                <label
                  key={font}
                  className={cn(
                    'flex cursor-pointer flex-col rounded-lg border p-3 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring/50',
                    checked ? 'border-primary ring-2 ring-primary' : 'hover:bg-muted/50',
                  )}
                >
                  <input
                    type="radio"
                    name={ids.font}
                    value={font}
                    checked={checked}
                    onChange={() => set({ caption_font: font })}
                    className="sr-only"
                  />
                  <span className="text-xl leading-tight font-bold" style={{ fontFamily: previewFamily(font) }}>
                    Try it today!
                  </span>
                  <span className="mt-1 text-xs text-muted-foreground">
                    {CAPTION_FONT_INFO[font].label} · {CAPTION_FONT_INFO[font].licence}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>

        <CaptionStylePicker
          label="Default caption style"
          value={draft.caption_style}
          onChange={(caption_style) => set({ caption_style })}
        />

        <div className="grid gap-4 sm:grid-cols-2">
          <div className="space-y-2">
            <Label htmlFor={ids.cta}>Default call to action</Label>
            <Input
              id={ids.cta}
              value={draft.cta_text}
              maxLength={CTA_MAX}
              placeholder="e.g. Shop now — 20% off"
              onChange={(e) => set({ cta_text: e.target.value })}
              aria-invalid={!ctaOk}
            />
            <p className="text-xs text-muted-foreground">Shown on the end card. Leave empty for no end card.</p>
          </div>
          <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
            <div className="space-y-1">
              <Label htmlFor={ids.outro}>Outro card with the logo</Label>
              <p className="text-sm text-muted-foreground">
                {logoUrl ? 'Videos end on your logo, after the CTA.' : BRAND_KIT_MESSAGES.outroNeedsLogo}
              </p>
            </div>
            <Switch
              id={ids.outro}
              checked={draft.outro}
              onCheckedChange={(outro) => set({ outro })}
              disabled={!logoUrl}
            />
          </div>
          <fieldset className="space-y-2 rounded-lg border p-4" data-testid="ai-label-mode">
            <legend className="px-1 text-sm font-medium">“{AI_LABEL_TEXT}” label on videos</legend>
            <p className="text-sm text-muted-foreground">
              Every video says it is AI-made in its file data. This adds a visible label in the corner of the video.
            </p>
            {AI_LABEL_MODES.map((mode) => (
              <label key={mode} className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="ai_label"
                  value={mode}
                  className="mt-1"
                  checked={draft.ai_label === mode}
                  onChange={() => set({ ai_label: mode })}
                />
                <span>
                  <span className="font-medium">{AI_LABEL_MODE_INFO[mode].label}</span>
                  <span className="block text-xs text-muted-foreground">{AI_LABEL_MODE_INFO[mode].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>
        </div>

        <div className="flex items-center justify-end gap-3">
          {dirty ? <span className="text-sm text-muted-foreground">Unsaved changes</span> : null}
          <Button type="button" onClick={onSave} disabled={!dirty || !coloursOk || !ctaOk || save.isPending}>
            {save.isPending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
            Save brand kit
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

/** A colour picker and its hex code, kept in step; the code is what is saved. */
function ColourField({
  id,
  label,
  hint,
  value,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  onChange: (v: string) => void;
}) {
  const valid = HEX.test(value);
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex items-center gap-2">
        <input
          type="color"
          aria-label={`${label} picker`}
          value={valid ? value.toLowerCase() : '#000000'}
          onChange={(e) => onChange(e.target.value.toUpperCase())}
          className="h-9 w-12 shrink-0 cursor-pointer rounded-md border bg-transparent p-1"
        />
        <Input
          id={id}
          value={value}
          maxLength={7}
          spellCheck={false}
          onChange={(e) => onChange(e.target.value.trim().toUpperCase())}
          aria-invalid={!valid}
          className="font-mono uppercase"
        />
      </div>
      <p className={cn('text-xs', valid ? 'text-muted-foreground' : 'text-destructive')}>
        {valid ? hint : 'Write the colour as #RRGGBB'}
      </p>
    </div>
  );
}

/**
 * How the kit will look, drawn like the engine draws it at a quarter of the size: a caption in the chosen style
 * and font with the brand colours, the CTA end card, and the outro card when it is on.
 */
function BrandPreview({ draft, logoUrl }: { draft: Draft; logoUrl: string | undefined }) {
  const primary = HEX.test(draft.primary_colour) ? draft.primary_colour : '#FFD23F';
  const secondary = HEX.test(draft.secondary_colour) ? draft.secondary_colour : '#111111';
  const font: CSSProperties = { fontFamily: previewFamily(draft.caption_font), fontWeight: 700 };
  const outline = '-1.5px -1.5px 0 #111,1.5px -1.5px 0 #111,-1.5px 1.5px 0 #111,1.5px 1.5px 0 #111';
  const caption = (() => {
    switch (draft.caption_style) {
      case 'highlight':
        return (
          <p className="text-center text-[13px] leading-tight text-white" style={{ ...font, textShadow: outline }}>
            This <span style={{ color: primary }}>changed</span> my mornings
          </p>
        );
      case 'pop':
        return (
          <p className="text-center text-[19px] text-white" style={{ ...font, textShadow: outline }}>
            Wonderful
          </p>
        );
      case 'boxed':
        return (
          <div className="flex flex-col items-center gap-0.5" style={font}>
            {['This changed', 'my mornings'].map((l) => (
              <span
                key={l}
                className="rounded-[3px] px-1.5 py-0.5 text-[11px]"
                style={{ background: `${secondary}D1`, color: textColourOn(secondary) }}
              >
                {l}
              </span>
            ))}
          </div>
        );
      case 'lower_third':
        return (
          <div
            className="mt-6 self-start rounded-[4px] px-1.5 py-1 text-left text-[9px]"
            style={{
              ...font,
              background: `${secondary}${textColourOn(secondary) === '#FFFFFF' ? '80' : 'D9'}`,
              color: textColourOn(secondary),
            }}
          >
            This changed my mornings for good
          </div>
        );
    }
  })();
  const frame = 'relative flex h-[213px] w-[120px] shrink-0 flex-col overflow-hidden rounded-md border shadow-sm';
  return (
    <div className="space-y-2" data-testid="brand-preview" aria-label="Preview of your brand kit">
      <span className="text-sm leading-none font-medium">Preview</span>
      <div className="flex gap-2">
        <div className={cn(frame, 'items-center justify-end bg-gradient-to-b from-sky-200 to-emerald-300 px-2 pb-12')}>
          <div className="absolute top-10 left-1/2 h-14 w-12 -translate-x-1/2 rounded-t-full bg-amber-700/70" />
          <div className="absolute top-[88px] left-1/2 h-24 w-20 -translate-x-1/2 rounded-t-3xl bg-teal-600/80" />
          <div className="relative flex w-full flex-col items-center">{caption}</div>
        </div>
        <div className={cn(frame, 'items-center justify-center gap-3 bg-[#F4EFE8] px-2')}>
          <div className="h-16 w-8 rounded-lg bg-blue-500/80" />
          {draft.cta_text.trim() ? (
            <span
              className="rounded-[9px] px-2 py-1 text-center text-[11px] leading-tight"
              style={{ ...font, background: primary, color: textColourOn(primary) }}
              data-testid="preview-cta"
            >
              {draft.cta_text.trim()}
            </span>
          ) : (
            <span className="text-[10px] text-muted-foreground">No end card</span>
          )}
        </div>
        {draft.outro && logoUrl ? (
          <div
            className={cn(frame, 'items-center justify-center px-3')}
            style={{ background: secondary }}
            data-testid="preview-outro"
          >
            <img src={logoUrl} alt="" className="max-h-16 max-w-[84px] object-contain" />
          </div>
        ) : null}
      </div>
    </div>
  );
}
