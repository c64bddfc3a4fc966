import { MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { NewProductProjectDialog } from './new-product-project-dialog';
import { spyOnToasts } from '../test/toasts';

spyOnToasts();

const uploadAndContinue = async () => {
  await userEvent.upload(
    screen.getByLabelText('Product image'),
    new File(['x'], 'glow_serum.png', { type: 'image/png' }),
  );
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
};

describe('NewProductProjectDialog', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('creates a project named after the file, closes and goes to choose actors', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ id: 7 }, 201));
    vi.stubGlobal('fetch', fetchMock);
    const onOpenChange = vi.fn();
    renderWithProviders(<NewProductProjectDialog open onOpenChange={onOpenChange} />, { route: '/new-video' });
    await uploadAndContinue();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/product-in-hand/7/select-actor'));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/projects/');
    expect((init.body as FormData).get('name')).toBe('glow serum');
    expect(toast.success).toHaveBeenCalledWith(MESSAGES.projects.created);
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it.each([
    ['the server says why', 413, { detail: 'File too large (max 10MB)' }, 'File too large (max 10MB)'],
    ['the server gives no reason', 500, {}, MESSAGES.projects.createFailed],
  ])('stays open and says so when the project cannot be created (%s)', async (_, status, body, shown) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(body, status)),
    );
    const onOpenChange = vi.fn();
    renderWithProviders(<NewProductProjectDialog open onOpenChange={onOpenChange} />, { route: '/new-video' });
    await uploadAndContinue();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(shown));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByTestId('location')).toHaveTextContent('/new-video');
    expect(screen.getByRole('button', { name: 'Continue' })).toBeEnabled();
  });
});
