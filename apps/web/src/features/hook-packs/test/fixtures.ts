import type { GeneratedCharacter, HookPack, Job, PreviewCharacter } from '@hookreel/contracts';
import { vi } from 'vitest';
import { defaultVideoStyle, jsonResponse, makeJob as makeBaseJob } from '@/test/render';

export const makePack = (over: Partial<HookPack> = {}): HookPack => ({
  id: 5,
  name: 'Glow Serum',
  language: 'english',
  accent: 'american',
  message: null,
  product_details: null,
  product_url: 'hook-packs/1/product.png',
  detected_shape: null,
  detected_category: null,
  cutout_check: null,
  status: 'product_uploaded',
  created_at: '2026-11-21T12:00:00.000Z',
  character_types: [],
  generated_characters: [],
  preview_characters: [],
  ...defaultVideoStyle,
  ...over,
});

/** An illustrated character {id} of character type 30 ('Young runner'), selected. */
export const makeGeneratedCharacter = (id: number, over: Partial<GeneratedCharacter> = {}): GeneratedCharacter => ({
  id,
  url: `characters/${id}.png`,
  prompt: 'Young runner',
  selected: true,
  character_type_id: 30,
  kind: 'illustrated',
  creator_id: null,
  ...over,
});

export const makePreview = (over: Partial<PreviewCharacter> = {}): PreviewCharacter => ({
  id: 11,
  generated_character_id: 21,
  url: 'previews/11.png',
  errors: null,
  approved: false,
  status: 'pending',
  created_at: '2026-11-21T12:00:00.000Z',
  position_x: 288,
  position_y: 640,
  scale: 0.3,
  rotation: 0,
  ...over,
});

/** A hook-pack video job as the API returns it (the shared job factory with a pack's fields). */
export const makeJob = (over: Partial<Job> = {}): Job =>
  makeBaseJob({
    id: 100,
    project_id: null,
    project_name: 'Glow Serum · Video #1',
    kind: 'render-hook-video',
    status: 'queued',
    progress: 0,
    created_at: '2026-11-21T12:00:00.000Z',
    updated_at: '2026-11-21T12:00:00.000Z',
    hook_pack_id: 5,
    variant_index: 1,
    ...over,
  });

/** mockApi for the Generate step: pack 5, its message as the only hook line, then `routes` (which may replace both). */
export const mockGenerateApi = (pack: HookPack, routes: Record<string, Handler> = {}) =>
  mockApi({
    'GET /hooks/5': () => jsonResponse(pack),
    'GET /hooks/5/hook-lines': () => jsonResponse({ lines: [pack.message] }),
    ...routes,
  });

type Handler = (ctx: { url: URL; init: RequestInit; body: unknown }) => Response | Promise<Response>;

/** A fetch stub routing `METHOD /path` (path without /api) to handlers; unknown calls answer 404. */
export function mockApi(routes: Record<string, Handler>) {
  const calls: Array<{ method: string; path: string; url: URL; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    let body: unknown = init.body;
    if (typeof init.body === 'string') body = JSON.parse(init.body);
    calls.push({ method, path, url, body });
    const handler = routes[`${method} ${path}`];
    if (!handler) return jsonResponse({ detail: 'Not found' }, 404);
    return handler({ url, init, body });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/**
 * GET /capabilities as a server with every stage local: Realistic videos and hook packs available or not, with
 * `missing` as the reason shown when not.
 */
export const makeCapabilities = (
  realistic: { videos: boolean; hookPacks: boolean },
  missing = 'Talking actor: set FAL_KEY',
) => {
  const local = { remote: false, provider: null };
  const availability = (available: boolean) => ({ available, missing: available ? [] : [missing] });
  return {
    stages: {
      voice: { ...local, word_timings: 'estimated' },
      characters: local,
      product_in_hand: local,
      talking_actor: local,
      product_analysis: local,
      hook_lines: local,
    },
    realistic: { videos: availability(realistic.videos), hook_packs: availability(realistic.hookPacks) },
    voice_speed: { min: 0.8, max: 1.2 },
  };
};
