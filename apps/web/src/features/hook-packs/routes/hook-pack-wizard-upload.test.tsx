import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LIMITS, VALIDATION } from '@hookreel/contracts';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { makePack, mockApi } from '../test/fixtures';
import { renderAt } from '../test/render-wizard';
import { HookPackWizardPage } from './hook-pack-wizard-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:local-product');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

const PNG_HEAD = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const png = (name: string) => new File([PNG_HEAD], name, { type: 'image/png' });

describe('Upload Product step', () => {
  it('creates the pack, uploads at once, and gives the URL the id once the server took the image', async () => {
    let finishUpload: (r: Response) => void = () => {};
    let pack = makePack({ product_url: null, status: 'created', name: null, product_details: null });
    const { calls } = mockApi({
      'POST /hooks': () => jsonResponse(pack),
      'GET /hooks/5': () => jsonResponse(pack),
      'POST /hooks/upload-product': () =>
        new Promise<Response>((r) => {
          finishUpload = r;
        }),
      'PUT /hooks/5': () => jsonResponse({ ...pack, status: 'product_uploaded' }),
    });
    // Both wizard routes, as in the app's route table.
    renderAt(<HookPackWizardPage />, { path: ['/hook-packs/new', '/hook-packs/new/:id'], entry: '/hook-packs/new' });
    await userEvent.upload(screen.getByLabelText('Product image'), png('glow-serum.png'));

    await waitFor(() => expect(screen.getByText('Uploading...')).toBeInTheDocument());
    expect(calls.find((c) => c.method === 'POST' && c.path === '/hooks')?.body).toEqual({
      language: 'english',
      accent: 'american',
    });
    expect(screen.getByTestId('product-image')).toHaveAttribute('src', 'blob:local-product');
    const form = calls.find((c) => c.path === '/hooks/upload-product')?.body as FormData;
    expect(form.get('hook_pack_id')).toBe('5');
    expect((form.get('product_image') as File).name).toBe('glow-serum.png');
    expect(screen.getByRole('button', { name: /^Continue/ })).toBeDisabled();

    pack = { ...pack, product_url: 'hook-packs/5/product.png', status: 'product_uploaded' };
    finishUpload(jsonResponse({ product_url: 'hook-packs/5/product.png', hook_pack_id: 5 }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/hook-packs/new/5'));
    await waitFor(() => expect(screen.getByRole('button', { name: /^Continue/ })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Analyze Product' })).toBeEnabled();

    // The pack gets a name a person can use, suggested from the product and the day, and editable.
    const name = screen.getByLabelText('Pack name');
    expect((name as HTMLInputElement).value).toMatch(/^Glow Serum — [A-Z][a-z]{2} \d{1,2}$/);
    await userEvent.clear(name);
    await userEvent.type(name, 'Serum launch');
    await userEvent.click(screen.getByRole('button', { name: /^Continue/ }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/hooks/5')?.body).toMatchObject({
        name: 'Serum launch',
      }),
    );
  }, 20_000);

  it("shows the server's reason for a refused upload, no broken preview, and discards the draft", async () => {
    const pack = makePack({ product_url: null, status: 'created' });
    const { calls } = mockApi({
      'POST /hooks': () => jsonResponse(pack),
      'POST /hooks/upload-product': () => jsonResponse({ detail: 'Image dimensions are too large' }, 422),
      'DELETE /hooks/5': () => new Response(null, { status: 204 }),
    });
    renderAt(<HookPackWizardPage />, { path: ['/hook-packs/new', '/hook-packs/new/:id'], entry: '/hook-packs/new' });
    await userEvent.upload(screen.getByLabelText('Product image'), png('huge.png'));

    expect(await screen.findByRole('alert')).toHaveTextContent('Image dimensions are too large');
    expect(toast.error).toHaveBeenCalledWith('Image dimensions are too large');
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.path === '/hooks/5')).toBe(true));
    expect(screen.queryByTestId('product-image')).toBeNull();
    expect(screen.getByText('No product image yet')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/hook-packs/new');
  });

  it('refuses an SVG and a too-large photo before creating anything', async () => {
    const { calls } = mockApi({});
    renderAt(<HookPackWizardPage />, { path: '/hook-packs/new', entry: '/hook-packs/new' });
    const input = screen.getByLabelText('Product image');
    await userEvent.upload(
      input,
      new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'logo.svg', { type: 'image/svg+xml' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(VALIDATION.imageRequired);
    const big = new File([PNG_HEAD, new Uint8Array(LIMITS.uploadMaxBytes)], 'big.png', { type: 'image/png' });
    await userEvent.upload(input, big);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(VALIDATION.fileTooLarge));
    // Nothing was created: the only request is the page reading the server's price list.
    expect(calls.filter((c) => !(c.method === 'GET' && c.path === '/credits/prices'))).toHaveLength(0);
    expect(screen.queryByTestId('product-image')).toBeNull();
  });
});
