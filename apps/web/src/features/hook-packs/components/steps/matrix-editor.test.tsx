import { MATRIX_MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makePriceList } from '@/test/render';
import { makeCapabilities, makeGeneratedCharacter, makePack, makePreview, mockGenerateApi } from '../../test/fixtures';
import { renderStep } from '../../test/render-wizard';
import { GenerateStep } from './generate-step';
import { spyOnToasts } from '../../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const pack = makePack({
  message: 'Glow all day',
  status: 'previews_ready',
  generated_characters: [makeGeneratedCharacter(21), makeGeneratedCharacter(22, { prompt: 'Office worker' })],
  preview_characters: [
    makePreview({ id: 11, generated_character_id: 21, approved: true }),
    makePreview({ id: 12, generated_character_id: 22, approved: true, url: 'previews/12.png' }),
  ],
});
const prices = makePriceList({
  prices: { video: 1.5 },
  trial_credits: 13.7,
  realistic: { credits_per_second: 0.04, hook_video: 1.82 },
});

const capabilities = makeCapabilities({ videos: true, hookPacks: true });

describe('GenerateStep matrix mode', () => {
  it('prices a Realistic pack at the realistic hook-video price', async () => {
    mockGenerateApi(
      { ...pack, quality: 'realistic' },
      {
        'GET /credits/prices': () => jsonResponse(prices),
      },
    );
    renderStep(GenerateStep);
    await userEvent.click(await screen.findByRole('button', { name: 'Matrix' }));
    await waitFor(() => expect(screen.getByTestId('matrix-price')).toHaveTextContent('2 videos cost 3.64 credits'));
  });

  it('offers the quality, voice speed and caption style, saves a pick before spending and prices by it', async () => {
    let stored = pack;
    const { calls } = mockGenerateApi(pack, {
      'GET /hooks/5': () => jsonResponse(stored),
      'GET /credits/prices': () => jsonResponse(prices),
      'GET /capabilities': () => jsonResponse(capabilities),
      'PUT /hooks/5': ({ body }) => jsonResponse((stored = { ...stored, ...(body as object) })),
      'POST /jobs/hook-pack/5/queue-videos': () => jsonResponse({ hook_pack_id: 5, total_jobs: 2 }),
    });
    renderStep(GenerateStep);
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
    const { calls } = mockGenerateApi(pack, {
      'GET /credits/prices': () => jsonResponse(prices),
      'POST /jobs/hook-pack/5/queue-videos': () => jsonResponse({ hook_pack_id: 5, total_jobs: 3 }),
    });
    renderStep(GenerateStep);
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
    const { calls } = mockGenerateApi(pack, {
      'GET /credits/prices': () => jsonResponse(prices),
    });
    renderStep(GenerateStep);
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
