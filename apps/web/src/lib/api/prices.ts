import { creditsTimes, roundCredits, type PricedOperation, type PriceList, withCost } from '@hookreel/contracts';
import { usePriceList } from './render-quality';

/** `units` of an operation at the server's price, in hundredths so 3 × 0.1 is 0.30. */
export const serverCostOf = (list: PriceList, operation: PricedOperation, units = 1): number =>
  creditsTimes(list.prices[operation], units);

/**
 * The server's price list as a spending button needs it: `cost(op, units)` is null until GET /api/credits/prices
 * has answered, so a screen shows no figure rather than one the server may not charge.
 */
export function useServerPrices() {
  const priceList = usePriceList();
  const list = priceList.data ?? null;
  return {
    list,
    isPending: priceList.isPending,
    cost: (operation: PricedOperation, units = 1): number | null =>
      list ? serverCostOf(list, operation, units) : null,
  };
}

/** A button's text with its price once known: "Continue · 0.20 credits", or just "Continue" while unknown. */
export const withKnownCost = (label: string, credits: number | null): string =>
  credits === null ? label : withCost(label, credits);

/** What a whole hook pack costs at the server's prices: its characters, up to one preview each, its videos. */
export function estimatePackFrom(list: PriceList, characterTypes: number) {
  const characterCount = characterTypes * list.characters_per_type;
  const characters = serverCostOf(list, 'characterGeneration', characterCount);
  const previews = serverCostOf(list, 'previewImage', characterCount);
  const videos = serverCostOf(list, 'video', list.videos_per_pack);
  return { characterCount, characters, previews, videos, total: roundCredits(characters + previews + videos) };
}
