import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { ApiKeysCard } from './api-keys-card';
import { spyOnToasts } from '../../../test/toasts';
import { makeApiKey } from '../test/fixtures';

spyOnToasts();

const KEY = makeApiKey();

let fetchMock: ReturnType<typeof vi.fn>;
const callsOf = (method: string) =>
  fetchMock.mock.calls.filter(([, init]) => ((init as RequestInit | undefined)?.method ?? 'GET') === method);

beforeEach(() => {
  let keys = [KEY];
  fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      // Slow enough that a double click's second click lands while the first is in flight.
      await new Promise((r) => setTimeout(r, 50));
      return jsonResponse({ ...KEY, id: 5, name: 'CI', key: `hrk_${'x'.repeat(43)}` }, 201);
    }
    if (init?.method === 'DELETE') {
      keys = [];
      return new Response(null, { status: 204 });
    }
    return jsonResponse(keys);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('ApiKeysCard', () => {
  it('makes one key for a double click on Create Key', async () => {
    renderWithProviders(<ApiKeysCard />, { auth: { user: null } });
    await userEvent.type(screen.getByLabelText('Key name'), 'CI');
    // A browser's double click: two clicks (detail 1, then 2) before React has re-rendered the button disabled.
    const button = screen.getByRole('button', { name: 'Create Key' });
    fireEvent.click(button, { detail: 1 });
    fireEvent.click(button, { detail: 2 });
    expect(await screen.findByLabelText('New key "CI"')).toBeInTheDocument();
    expect(callsOf('POST')).toHaveLength(1);
  });

  it('asks before revoking, and Cancel keeps the key', async () => {
    renderWithProviders(<ApiKeysCard />, { auth: { user: null } });
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke "Nightly export"?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsOf('DELETE')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Revoke Nightly export' }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(callsOf('DELETE')).toHaveLength(1));
    expect(await screen.findByText('No API keys yet.')).toBeInTheDocument();
  });
});
