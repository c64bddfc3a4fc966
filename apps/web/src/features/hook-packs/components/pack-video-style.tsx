import { type CaptionStyle, type HookPack, MESSAGES, type VideoQuality } from '@hookreel/contracts';
import { useState } from 'react';
import { toast } from 'sonner';
import { AspectPicker } from '@/components/aspect-picker';
import { BrandStyleFields } from '@/components/brand-style-fields';
import { CaptionStylePicker } from '@/components/caption-style-picker';
import { MusicBedField } from '@/components/music-bed-field';
import { RenderQualityPicker, VoiceSpeedSlider } from '@/components/render-quality-picker';
import { saveOrRestore } from '@/lib/save-or-restore';
import { errorDetail } from '@/lib/api-client';
import { useCapabilities, usePriceList } from '@/lib/api/render-quality';
import { useBrandLook } from '@/hooks/use-brand-look';
import { usePackMusic } from '../api/pack-music';
import { type UpdateHookPackInput, useUpdateHookPack } from '../api/update-hook-pack';
import { usePackAspects } from '../lib/use-pack-aspects';

export interface PackVideoStyle {
  quality: VideoQuality;
  voiceSpeed: number;
  captionStyle: CaptionStyle;
  /** Credits per video at the picked quality, as the server holds them; null while the price list loads. */
  perVideo: number | null;
  /** Saves any pick whose save is still pending, so the videos render with (and are priced at) what is shown. */
  saveUnsaved: () => Promise<unknown>;
  pickers: (disabled: boolean) => React.ReactNode;
}

/**
 * The pack's quality, voice speed, caption style, brand look, music bed and frame shapes as both Generate modes (the 12 videos and the matrix) show
 * them: each pick is saved on the pack at once (the speed once the slider is released, the brand look once it is still), and a failed save puts
 * the stored value back. The server holds each video's price from the pack's stored quality, so what is saved is
 * what is charged.
 */
export function usePackVideoStyle(pack: HookPack): PackVideoStyle {
  const save = useUpdateHookPack();
  const savePack = (patch: UpdateHookPackInput, options: { onError: (e: unknown) => void }) =>
    save.mutate({ id: pack.id, ...patch }, options);
  const saveCaption = saveOrRestore(savePack, MESSAGES.hookPacks.captionStyleFailed);
  const saveStyle = saveOrRestore(savePack, MESSAGES.hookPacks.videoStyleFailed);
  const music = usePackMusic(pack.id);
  const [captionStyle, setCaptionStyle] = useState<CaptionStyle>(pack.caption_style);
  const [quality, setQuality] = useState<VideoQuality>(pack.quality);
  const [voiceSpeed, setVoiceSpeed] = useState(pack.voice_speed);
  const shapes = usePackAspects(pack);
  const brandLook = useBrandLook(
    {
      caption_font: pack.caption_font,
      primary_colour: pack.primary_colour,
      secondary_colour: pack.secondary_colour,
      outro: pack.outro,
    },
    (patch) => save.mutateAsync({ id: pack.id, ...patch }),
    (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.videoStyleFailed)),
  );
  const capabilities = useCapabilities();
  const priceList = usePriceList();
  // A hook video is priced at a fixed length whatever its line and speed (the server holds the same).
  const prices = priceList.data
    ? { draft: priceList.data.prices.video, realistic: priceList.data.realistic.hook_video }
    : null;
  const perVideo = quality === 'realistic' ? (prices?.realistic ?? null) : (prices?.draft ?? null);

  const changeCaptionStyle = (next: CaptionStyle) => saveCaption('caption_style', next, captionStyle, setCaptionStyle);
  const changeQuality = (next: VideoQuality) => saveStyle('quality', next, quality, setQuality);
  const commitVoiceSpeed = (next: number) => {
    if (next === pack.voice_speed) return;
    save.mutate(
      { id: pack.id, voice_speed: next },
      {
        onError: (e) => {
          setVoiceSpeed(pack.voice_speed);
          toast.error(errorDetail(e, MESSAGES.hookPacks.videoStyleFailed));
        },
      },
    );
  };

  const saveUnsaved = () => {
    const unsaved = {
      ...(captionStyle !== pack.caption_style ? { caption_style: captionStyle } : {}),
      ...(quality !== pack.quality ? { quality } : {}),
      ...(voiceSpeed !== pack.voice_speed ? { voice_speed: voiceSpeed } : {}),
    };
    return Promise.all([
      Object.keys(unsaved).length === 0 ? Promise.resolve() : save.mutateAsync({ id: pack.id, ...unsaved }),
      shapes.saved(),
      brandLook.flush(),
    ]);
  };

  return {
    quality,
    voiceSpeed,
    captionStyle,
    perVideo,
    saveUnsaved,
    pickers: (disabled) => (
      <>
        <RenderQualityPicker
          value={quality}
          onChange={changeQuality}
          prices={prices}
          availability={capabilities.data?.realistic.hook_packs ?? null}
          disabled={disabled}
        />
        <VoiceSpeedSlider value={voiceSpeed} onChange={setVoiceSpeed} onCommit={commitVoiceSpeed} disabled={disabled} />
        <CaptionStylePicker value={captionStyle} onChange={changeCaptionStyle} disabled={disabled} />
        <AspectPicker value={shapes.aspects} onChange={shapes.change} disabled={disabled} />
        <BrandStyleFields value={brandLook.brand} onChange={brandLook.change} disabled={disabled} />
        <MusicBedField musicUrl={pack.music_url} music={music} disabled={disabled} />
      </>
    ),
  };
}
