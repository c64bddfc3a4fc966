import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatCredits, TIMINGS } from '@hookreel/contracts';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makePriceList } from '@/test/render';
import { makeCapabilities, makeGeneratedCharacter, makePack, makePreview, mockGenerateApi } from '../../test/fixtures';
import { renderStep } from '../../test/render-wizard';
import { GenerateStep } from './generate-step';
import { spyOnToasts } from '../../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const pack = makePack({
  message: 'My skin glows now',
  status: 'previews_ready',
  generated_characters: [makeGeneratedCharacter(21)],
  preview_characters: [makePreview({ approved: true })],
});

describe('GenerateStep caption style', () => {
  it('saves the picked style on the pack at once, before the videos are queued', async () => {
    const { calls } = mockGenerateApi(pack, {
      'PUT /hooks/5': ({ body }) => jsonResponse({ ...pack, ...(body as object) }),
    });
    renderStep(GenerateStep);
    expect(await screen.findByRole('radio', { name: /Word highlight/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Lower third/ }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        expect.objectContaining({ path: '/hooks/5', body: { caption_style: 'lower_third' } }),
      ]),
    );
    expect(screen.getByRole('radio', { name: /Lower third/ })).toBeChecked();
  });

  it('puts the stored style back and says so when saving fails', async () => {
    mockGenerateApi(pack, {
      'PUT /hooks/5': () => jsonResponse({ detail: 'Service unavailable' }, 503),
    });
    renderStep(GenerateStep);
    await userEvent.click(await screen.findByRole('radio', { name: /One word pop/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Service unavailable'));
    expect(screen.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
  });
});

describe('GenerateStep brand look', () => {
  it('shows a dragged colour at once and saves it on the pack once the drag is still', async () => {
    const { calls } = mockGenerateApi(pack, {
      'PUT /hooks/5': ({ body }) => jsonResponse({ ...pack, ...(body as object) }),
    });
    renderStep(GenerateStep);
    const picker = await screen.findByLabelText('Second colour');
    // A colour picker sends one input event per step of the drag.
    for (const v of ['#102030', '#203040', '#304050', '#405060', '#1d3557']) {
      fireEvent.input(picker, { target: { value: v } });
    }
    expect(picker).toHaveValue('#1d3557');
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        expect.objectContaining({ path: '/hooks/5', body: { secondary_colour: '#1D3557' } }),
      ]),
    );
    await new Promise((r) => setTimeout(r, TIMINGS.brandLookSaveMs + 100));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });
});

const capabilities = (available: boolean) => makeCapabilities({ videos: available, hookPacks: available });
const priceList = makePriceList({ trial_credits: 13.7, realistic: { credits_per_second: 0.04, hook_video: 1.32 } });

describe('GenerateStep quality and voice speed', () => {
  it('saves Realistic on the pack and prices the Generate button at the realistic hook-video price', async () => {
    const { calls } = mockGenerateApi(pack, {
      'GET /capabilities': () => jsonResponse(capabilities(true)),
      'GET /credits/prices': () => jsonResponse(priceList),
      'PUT /hooks/5': ({ body }) => jsonResponse({ ...pack, ...(body as object) }),
    });
    renderStep(GenerateStep);
    await waitFor(() => expect(screen.getByTestId('price-realistic')).toHaveTextContent('1.32 credits per video'));
    expect(screen.getByTestId('price-draft')).toHaveTextContent('1.00 credit per video');
    const rows = screen.getAllByTestId('variant-row').length;
    expect(
      screen.getByRole('button', { name: new RegExp(`Generate ${rows} videos · ${formatCredits(rows)} credits`) }),
    ).toBeEnabled();

    await userEvent.click(screen.getByRole('radio', { name: /Realistic/ }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        expect.objectContaining({ path: '/hooks/5', body: { quality: 'realistic' } }),
      ]),
    );
    const total = formatCredits(Math.round(rows * 132) / 100);
    expect(
      screen.getByRole('button', { name: new RegExp(`Generate ${rows} videos · ${total} credits`) }),
    ).toBeEnabled();
    expect(screen.getByTestId('videos-cost')).toHaveTextContent(`${rows} videos cost ${total} credits.`);
  });

  it('offers Realistic only when the providers are configured, saying what is missing', async () => {
    mockGenerateApi(pack, {
      'GET /capabilities': () => jsonResponse(capabilities(false)),
      'GET /credits/prices': () => jsonResponse(priceList),
    });
    renderStep(GenerateStep);
    expect(await screen.findByTestId('realistic-unavailable')).toHaveTextContent('Talking actor: set FAL_KEY');
    expect(screen.getByRole('radio', { name: /Realistic/ })).toBeDisabled();
    expect(screen.getByRole('radio', { name: /Draft/ })).toBeChecked();
  });

  it('saves the voice speed once when the slider is released, not on every step of the drag', async () => {
    const { calls } = mockGenerateApi(pack, {
      'PUT /hooks/5': ({ body }) => jsonResponse({ ...pack, ...(body as object) }),
    });
    renderStep(GenerateStep);
    const slider = await screen.findByRole('slider', { name: 'Voice speed' });
    fireEvent.pointerDown(slider);
    for (const v of ['1.05', '1.1', '1.15', '1.2', '1.15', '1.1']) fireEvent.input(slider, { target: { value: v } });
    expect(slider).toHaveAttribute('aria-valuetext', '1.10x');
    // Still dragging: nothing saved yet, however long the pointer is held.
    await new Promise((r) => setTimeout(r, 400));
    expect(calls.filter((c) => c.method === 'PUT')).toEqual([]);

    // The browser sends both pointerup and the native change event on release: one save.
    fireEvent.pointerUp(slider);
    slider.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        expect.objectContaining({ path: '/hooks/5', body: { voice_speed: 1.1 } }),
      ]),
    );
    await new Promise((r) => setTimeout(r, 400));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
  });

  it('saves once after a run of arrow-key steps', async () => {
    const { calls } = mockGenerateApi(pack, {
      'PUT /hooks/5': ({ body }) => jsonResponse({ ...pack, ...(body as object) }),
    });
    renderStep(GenerateStep);
    const slider = await screen.findByRole('slider', { name: 'Voice speed' });
    for (const v of ['0.95', '0.9', '0.85']) {
      fireEvent.input(slider, { target: { value: v } });
      fireEvent.keyUp(slider, { key: 'ArrowLeft' });
    }
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'PUT')).toEqual([
        expect.objectContaining({ path: '/hooks/5', body: { voice_speed: 0.85 } }),
      ]),
    );
  });
});
