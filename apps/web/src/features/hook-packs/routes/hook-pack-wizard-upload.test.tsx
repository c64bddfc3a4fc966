import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { makePack, mockApi } from '../test/fixtures';
import { renderAt } from '../test/render-wizard';
import { HookPackWizardPage } from './hook-pack-wizard-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:local-product');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.unstubAllGlobals());

describe('Upload Product step', () => {
  it('creates the pack, keeps the wizard state while the URL gains the id, uploads at once', async () => {
    let finishUpload: (r: Response) => void = () => {};
    let pack = makePack({ product_url: null, status: 'created' });
    const { calls } = mockApi({
      'POST /hooks': () => jsonResponse(pack),
      'GET /hooks/5': () => jsonResponse(pack),
      'POST /hooks/upload-product': () =>
        new Promise<Response>((r) => {
          finishUpload = r;
        }),
    });
    // Both wizard routes, as in the app's route table.
    renderAt(<HookPackWizardPage />, { path: ['/hook-packs/new', '/hook-packs/new/:id'], entry: '/hook-packs/new' });
    await userEvent.upload(
      screen.getByLabelText('Product image'),
      new File(['png'], 'serum.png', { type: 'image/png' }),
    );

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/hook-packs/new/5'));
    expect(calls.find((c) => c.method === 'POST' && c.path === '/hooks')?.body).toEqual({
      language: 'english',
      accent: 'american',
    });
    expect(screen.getByText('Uploading...')).toBeInTheDocument();
    expect(screen.getByTestId('product-image')).toHaveAttribute('src', 'blob:local-product');
    const form = calls.find((c) => c.path === '/hooks/upload-product')?.body as FormData;
    expect(form.get('hook_pack_id')).toBe('5');
    expect((form.get('product_image') as File).name).toBe('serum.png');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeDisabled();

    pack = { ...pack, product_url: 'hook-packs/5/product.png', status: 'product_uploaded' };
    finishUpload(jsonResponse({ product_url: 'hook-packs/5/product.png', hook_pack_id: 5 }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled());
    expect(screen.getByRole('button', { name: 'Analyze Product' })).toBeEnabled();
  });
});
