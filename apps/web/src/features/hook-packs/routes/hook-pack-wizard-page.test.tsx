import { MESSAGES, VALIDATION } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makePriceList } from '@/test/render';
import { makePack, mockApi } from '../test/fixtures';
import { renderAt } from '../test/render-wizard';
import { HookPackWizardPage } from './hook-pack-wizard-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const openPack = (pack = makePack(), state: unknown = { fromIndex: true }) =>
  renderAt(<HookPackWizardPage />, { path: '/hook-packs/new/:id', entry: `/hook-packs/new/${pack.id}`, state });

describe('HookPackWizardPage', () => {
  it('opens on step 2 (Character Type) when coming from the list', async () => {
    mockApi({ 'GET /hooks/5': () => jsonResponse(makePack()) });
    openPack();
    expect(await screen.findByRole('heading', { name: 'Character Type' })).toBeInTheDocument();
    expect(screen.getByText('Step 2 of 7: Character Type')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Character Type/, current: 'step' })).toBeInTheDocument();
  });

  it('shows the step the address names after a reload or Back, and keeps each step it moves to in the address', async () => {
    mockApi({
      'GET /hooks/5': () => jsonResponse(makePack({ status: 'message_created', message: 'Glow in 7 days' })),
      'PUT /hooks/5': ({ body }) => jsonResponse(makePack({ ...(body as object) })),
    });
    renderAt(<HookPackWizardPage />, {
      path: '/hook-packs/new/:id',
      entry: '/hook-packs/new/5?step=3',
      state: { fromIndex: true },
    });
    expect(await screen.findByRole('heading', { name: 'Hook Message' })).toBeInTheDocument();
    expect(screen.getByLabelText('Hook message')).toHaveValue('Glow in 7 days');
    // The steps the pack has reached stay open in the stepper.
    expect(screen.getByRole('button', { name: /Character Type/ })).toBeEnabled();
    await userEvent.click(screen.getByRole('button', { name: /^Back/ }));
    expect(await screen.findByRole('heading', { name: 'Character Type' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/hook-packs/new/5?step=2');
  });

  it("says how many videos a pack makes, and what the step's characters cost, from the server's price list", async () => {
    mockApi({
      'GET /hooks/5': () => jsonResponse(makePack()),
      'GET /credits/prices': () =>
        jsonResponse(
          makePriceList({
            prices: { video: 2, characterGeneration: 0.25, previewImage: 0.5, merge: 0.3 },
            characters_per_type: 3,
            videos_per_pack: 10,
          }),
        ),
    });
    openPack();
    expect(await screen.findByRole('heading', { name: 'Character Type' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Upload your product, describe characters, write a hook and generate a pack of 10 videos.',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText(/We generate 3 characters for each type\./)).toBeInTheDocument();
  });

  it('opens on step 1 (Upload Product) without the flag, and for a new pack', async () => {
    mockApi({ 'GET /hooks/5': () => jsonResponse(makePack()) });
    openPack(makePack(), null);
    expect(await screen.findByRole('heading', { name: 'Upload Product' })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('rejects a non-image file on the upload step', async () => {
    const { calls } = mockApi({});
    renderAt(<HookPackWizardPage />, { path: '/hook-packs/new', entry: '/hook-packs/new' });
    expect(screen.getByText('No product image yet')).toBeInTheDocument();
    const input = screen.getByLabelText('Product image');
    await userEvent.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }), { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.imageRequired);
    // Nothing was sent: the only request is the page reading the server's price list.
    expect(calls.filter((c) => !(c.method === 'GET' && c.path === '/credits/prices'))).toHaveLength(0);
  });

  it('validates character types: none, more than six, blank', async () => {
    const { calls } = mockApi({ 'GET /hooks/5': () => jsonResponse(makePack()) });
    openPack();
    await screen.findByRole('heading', { name: 'Character Type' });
    const cont = screen.getByRole('button', { name: /^Continue/ });

    // blank (the starting row is empty)
    await userEvent.click(cont);
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.characterTypesBlank);

    // none
    await userEvent.click(screen.getByRole('button', { name: 'Remove character type 1' }));
    await userEvent.click(cont);
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.characterTypesMin);

    // a seventh
    const add = screen.getByRole('button', { name: 'Add Character Type' });
    for (let i = 0; i < 6; i++) await userEvent.click(add);
    expect(screen.getAllByLabelText(/^Character type \d$/)).toHaveLength(6);
    await userEvent.click(add);
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.characterTypesMax);
    expect(screen.getAllByLabelText(/^Character type \d$/)).toHaveLength(6);

    expect(calls.filter((c) => c.method !== 'GET')).toHaveLength(0);
  });

  it('saves types, starts 4 characters per type, then requires a hook message', async () => {
    let pack = makePack();
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(pack),
      'POST /hooks/character-types/batch': ({ body }) => {
        const types = (body as Array<{ description: string; order_index: number }>).map((t, i) => ({
          id: 30 + i,
          ...t,
        }));
        pack = { ...pack, character_types: types };
        return jsonResponse(types);
      },
      'PUT /hooks/5': ({ body }) => {
        pack = { ...pack, ...(body as object) };
        return jsonResponse(pack);
      },
      'POST /hooks/generate-characters': () => jsonResponse({ job_id: 70, hook_pack_id: 5, characters: [] }),
      'GET /voices': () =>
        jsonResponse({
          voices: [
            {
              id: 'flite:awb',
              engine: 'flite',
              label: 'Alan (Scottish English, flite)',
              language: 'english',
              accent: 'british',
              gender: 'male',
              licence: 'BSD-style',
              sample_url: '/api/voices/flite%3Aawb/sample',
              default: true,
            },
          ],
        }),
      'GET /jobs/70': () =>
        jsonResponse({
          id: 70,
          project_id: null,
          project_name: 'x',
          kind: 'generate-characters',
          status: 'completed',
          progress: 100,
          video_url: null,
          poster_url: null,
          created_at: '',
          updated_at: '',
          logs: [],
          hook_pack_id: 5,
          variant_index: null,
          error: null,
          cost: null,
        }),
    });
    openPack();
    await screen.findByRole('heading', { name: 'Character Type' });
    await userEvent.type(screen.getByLabelText('Character type 1'), 'Young runner');
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));

    expect(await screen.findByRole('heading', { name: 'Hook Message' })).toBeInTheDocument();
    const batch = calls.find((c) => c.path === '/hooks/character-types/batch');
    expect(batch?.url.searchParams.get('hook_pack_id')).toBe('5');
    expect(batch?.body).toEqual([{ description: 'Young runner', order_index: 0 }]);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ status: 'character_types_defined' });
    await waitFor(() => expect(calls.some((c) => c.path === '/hooks/generate-characters')).toBe(true));
    const gen = calls.find((c) => c.path === '/hooks/generate-characters');
    expect(gen?.url.searchParams.get('count')).toBe('4');
    expect(gen?.url.searchParams.get('character_type_id')).toBe('30');

    // hook message required
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.hookRequired);
    await userEvent.type(screen.getByLabelText('Hook message'), '   ');
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));
    expect(screen.getByRole('alert')).toHaveTextContent(VALIDATION.hookRequired);

    await userEvent.type(screen.getByLabelText('Hook message'), 'This serum cleared my skin');
    // The speaker is picked here, with the language it speaks, and saved with the step.
    await userEvent.click(await screen.findByRole('radio', { name: /^Alan/ }));
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));
    expect(await screen.findByRole('heading', { name: 'Characters' })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({
      message: 'This serum cleared my skin',
      language: 'english',
      accent: 'american',
      voice_id: 'flite:awb',
      status: 'message_created',
    });
  }, 20_000);

  it('shows the save-types toast when the batch save fails', async () => {
    mockApi({
      'GET /hooks/5': () => jsonResponse(makePack()),
      'POST /hooks/character-types/batch': () => jsonResponse({ detail: 'nope' }, 500),
    });
    openPack();
    await userEvent.type(await screen.findByLabelText('Character type 1'), 'Runner');
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));
    // The server's own words win over the generic message.
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('nope'));
    expect(screen.getByRole('heading', { name: 'Character Type' })).toBeInTheDocument();
  });

  it('on a load failure toasts and goes back to the list', async () => {
    mockApi({ 'GET /hooks/9': () => jsonResponse({ detail: 'Hook pack not found' }, 404) });
    renderAt(<HookPackWizardPage />, {
      path: '/hook-packs/new/:id',
      entry: '/hook-packs/new/9',
      state: { fromIndex: true },
    });
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/hook-packs'));
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.hookPacks.loadFailed);
  });
});
