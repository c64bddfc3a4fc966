import type { JobCost, ProviderCostUsd, ProviderPrices } from '@hookreel/contracts';
import type { Config } from '../../config.ts';

/**
 * The providers' public list prices in US dollars, as read in November 2026 (decision 177). Sources, also listed
 * in docs/providers.md:
 * - fal talking actor, per second of video: https://fal.ai/models/fal-ai/bytedance/omnihuman/llms.txt,
 *   https://fal.ai/models/fal-ai/bytedance/omnihuman/v1.5/llms.txt, https://fal.ai/models/veed/fabric-1.0/llms.txt
 * - ElevenLabs voice, per 1,000 characters (Multilingual v2/v3, pay as you go, the top of its $0.10–0.12 range):
 *   https://elevenlabs.io/pricing/api
 * - OpenAI gpt-image-1, per 1024x1536 image by quality (input image tokens not counted):
 *   https://community.openai.com/t/gpt-image-1-collected-pricing-information-and-why-responses-is-undocumented/1275254
 * A model missing from a table is priced as the default model; operators with other models or contracts set
 * PROVIDER_USD_PER_* instead.
 */
export const LIST_PRICES = {
  asOf: '2026-11',
  usdPerSecondByAvatarModel: {
    'fal-ai/bytedance/omnihuman': 0.14,
    'fal-ai/bytedance/omnihuman/v1.5': 0.16,
    'veed/fabric-1.0': 0.08,
  } as Record<string, number>,
  defaultAvatarModel: 'fal-ai/bytedance/omnihuman',
  usdPerImageByQuality: { low: 0.016, medium: 0.063, high: 0.25 } as Record<string, number>,
  // The engine's default for GPT image models (OPENAI_EDIT_QUALITY); `auto` may bill at high, priced as high.
  defaultImageQuality: 'medium',
  usdPer1kCharacters: 0.12,
} as const;

/** The prices the server counts provider units at: the operator's where set, else the configured models' list prices. */
export function providerPrices(settings: Config['providerPriceSettings']): ProviderPrices {
  const avatar = settings.avatarModel?.trim() || LIST_PRICES.defaultAvatarModel;
  const quality = settings.imageQuality?.trim().toLowerCase() || LIST_PRICES.defaultImageQuality;
  const listPerSecond =
    LIST_PRICES.usdPerSecondByAvatarModel[avatar] ??
    LIST_PRICES.usdPerSecondByAvatarModel[LIST_PRICES.defaultAvatarModel]!;
  const listPerImage =
    LIST_PRICES.usdPerImageByQuality[quality === 'auto' ? 'high' : quality] ??
    LIST_PRICES.usdPerImageByQuality[LIST_PRICES.defaultImageQuality]!;
  const own = [settings.usdPerImage, settings.usdPer1kCharacters, settings.usdPerSecond].some((v) => v !== undefined);
  return {
    as_of: settings.asOf ?? LIST_PRICES.asOf,
    source: own ? 'operator' : 'list',
    usd_per_image: settings.usdPerImage ?? listPerImage,
    usd_per_1k_characters: settings.usdPer1kCharacters ?? LIST_PRICES.usdPer1kCharacters,
    usd_per_second: settings.usdPerSecond ?? listPerSecond,
  };
}

/** Provider units in US dollars at the given prices, to the cent (what a person compares with a provider bill). */
export function usdOf(cost: Pick<JobCost, 'images' | 'characters' | 'seconds'>, prices: ProviderPrices): number {
  const usd =
    cost.images * prices.usd_per_image +
    (cost.characters / 1000) * prices.usd_per_1k_characters +
    cost.seconds * prices.usd_per_second;
  return Math.round(usd * 100) / 100;
}

/** A job's cost in money, or null when it has none. */
export function costInUsd(cost: JobCost | null, prices: ProviderPrices): ProviderCostUsd | null {
  return cost ? { usd: usdOf(cost, prices), prices } : null;
}
