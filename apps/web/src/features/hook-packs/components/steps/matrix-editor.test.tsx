import { MATRIX_MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { useHookPack } from '../../api/get-hook-pack';
import { makePack, makePreview, mockApi } from '../../test/fixtures';
import { renderAt, stepProps } from '../../test/render-wizard';
import { GenerateStep } from './generate-step';
import { spyOnToasts } from '../../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

function Harness() {
  const pack = useHookPack(5);
  return <GenerateStep {...stepProps(pack.data ?? null)} />;
}

const pack = makePack({
  message: 'Glow all day',
  status: 'previews_ready',
  generated_characters: [
    {
      id: 21,
      url: 'characters/21.png',
      prompt: 'Young runner',
      selected: true,
      character_type_id: 30,
      kind: 'illustrated',
      creator_id: null,
    },
    {
      id: 22,
      url: 'characters/22.png',
      prompt: 'Office worker',
      selected: true,
      character_type_id: 30,
      kind: 'illustrated',
      creator_id: null,
    },
  ],
  preview_characters: [
    makePreview({ id: 11, generated_character_id: 21, approved: true }),
    makePreview({ id: 12, generated_character_id: 22, approved: true, url: 'previews/12.png' }),
  ],
});
const prices = {
  prices: { video: 1.5, characterGeneration: 0.05, previewImage: 0.1, merge: 0.1 },
  trial_credits: 13.7,
  realistic: { credits_per_second: 0.04, hook_video: 1.82 },
  characters_per_type: 4,
  videos_per_pack: 12,
};

const local = { remote: false, provider: null };
const capabilities = {
  stages: {
    voice: { remote: true, provider: 'ElevenLabs', word_timings: 'exact' },
    characters: local,
    product_in_hand: local,
    talking_actor: local,
    product_analysis: local,
    hook_lines: local,
  },
  realistic: { videos: { available: true, missing: [] }, hook_packs: { available: true, missing: [] } },
  voice_speed: { min: 0.8, max: 1.2 },
};

describe('GenerateStep matrix mode', () => {
  it('prices a Realistic pack at the realistic hook-video price', async () => {
    mockApi({
      'GET /hooks/5': () => jsonResponse({ ...pack, quality: 'realistic' }),
      'GET /hooks/5/hook-lines': () => jsonResponse({ lines: ['Glow all day'] }),
      'GET /credits/prices': () => jsonResponse(prices),
    });
    renderAt(<Harness />, { path: '/hook-packs/new/:id', entry: '/hook-packs/new/5' });
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }));
    await waitFor(() => expect(screen.getByTestId('matrix-price')).toHaveTextContent('2 videos cost 3.64 credits'));
  });

  it('offers the quality, voice speed and caption style, saves a pick before spending and prices by it', async () => {
    let stored = pack;
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(stored),
      'GET /hooks/5/hook-lines': () => jsonResponse({ lines: ['Glow all day'] }),
      'GET /credits/prices': () => jsonResponse(prices),
      'GET /capabilities': () => jsonResponse(capabilities),
      'PUT /hooks/5': ({ body }) => jsonResponse((stored = { ...stored, ...(body as object) })),
      'POST /jobs/hook-pack/5/queue-videos': () => jsonResponse({ hook_pack_id: 5, total_jobs: 2 }),
    });
    renderAt(<Harness />, { path: '/hook-packs/new/:id', entry: '/hook-packs/new/5' });
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }));
    expect(screen.getByRole('slider', { name: 'Voice speed' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
    await waitFor(() => expect(screen.getByTestId('price-realistic')).toHaveTextContent('1.82 credits per video'));
    expect(screen.getByTestId('price-draft')).toHaveTextContent('1.50 credits per video');
    expect(screen.getByTestId('matrix-price')).toHaveTextContent('2 videos cost 3.00 credits (1.50 each)');

    await userEvent.click(screen.getByRole('radio', { name: /Realistic/ }));
    expect(screen.getByTestId('matrix-price')).toHaveTextContent('2 videos cost 3.64 credits (1.82 each)');
    await userEvent.click(screen.getByRole('radio', { name: /One word pop/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Generate 2 videos · 3.64 credits' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const writes = calls.filter((c) => c.method !== 'GET');
    // Each pick is saved on the pack (the server prices the videos from it) before the videos are queued.
    expect(writes.map((c) => c.method)).toEqual(['PUT', 'PUT', 'POST']);
    expect(writes.slice(0, 2).map((c) => c.body)).toEqual([{ quality: 'realistic' }, { caption_style: 'pop' }]);
  });

  it("shows the grid and the server's price, and sends only the ticked cells", async () => {
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(pack),
      'GET /hooks/5/hook-lines': () => jsonResponse({ lines: ['Glow all day'] }),
      'GET /credits/prices': () => jsonResponse(prices),
      'POST /jobs/hook-pack/5/queue-videos': () => jsonResponse({ hook_pack_id: 5, total_jobs: 3 }),
    });
    renderAt(<Harness />, { path: '/hook-packs/new/:id', entry: '/hook-packs/new/5' });
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }));
    expect(screen.getByLabelText('Hook 1')).toHaveValue('Glow all day');
    await userEvent.click(screen.getByRole('button', { name: 'Add hook' }));
    await userEvent.type(screen.getByLabelText('Hook 2'), 'Try it');

    const size = screen.getByTestId('matrix-size');
    expect(size).toHaveTextContent('Grid: 2 hooks × 2 actors × 1 CTA = 4 videos, 4 ticked');
    // The price list the server serves (1.50 a video here), not a copy in the client.
    await waitFor(() => expect(screen.getByTestId('matrix-price')).toHaveTextContent('4 videos cost 6.00 credits'));

    await userEvent.click(screen.getByRole('checkbox', { name: 'Video H2-A1-C1' }));
    expect(size).toHaveTextContent('4 videos, 3 ticked');
    await userEvent.click(screen.getByRole('button', { name: 'Generate 3 videos · 4.50 credits' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      matrix: {
        hooks: ['Glow all day', 'Try it'],
        character_ids: [21, 22],
        ctas: ['Shop now'],
        cells: [
          { hook: 0, actor: 0, cta: 0 },
          { hook: 0, actor: 1, cta: 0 },
          { hook: 1, actor: 1, cta: 0 },
        ],
      },
    });
  });

  it('refuses duplicate hooks and an empty grid before anything is sent', async () => {
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(pack),
      'GET /hooks/5/hook-lines': () => jsonResponse({ lines: ['Glow all day'] }),
      'GET /credits/prices': () => jsonResponse(prices),
    });
    renderAt(<Harness />, { path: '/hook-packs/new/:id', entry: '/hook-packs/new/5' });
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add hook' }));
    await userEvent.type(screen.getByLabelText('Hook 2'), 'glow all day');
    await userEvent.click(screen.getByRole('button', { name: /^Generate 4 videos/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MATRIX_MESSAGES.duplicateHook);
    await userEvent.click(screen.getByRole('button', { name: 'Remove hook 2' }));
    for (const a of ['A1', 'A2']) await userEvent.click(screen.getByRole('checkbox', { name: `Video H1-${a}-C1` }));
    await userEvent.click(screen.getByRole('button', { name: /^Generate 0 videos/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MATRIX_MESSAGES.noCells);
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
