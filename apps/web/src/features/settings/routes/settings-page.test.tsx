import { DEFAULT_BRAND_KIT, INTEGRATION_MESSAGES } from '@hookreel/contracts';
import { screen, within, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithProviders } from '@/test/render';
import { SettingsPage } from './settings-page';
import { spyOnToasts } from '../../../test/toasts';
import { makeApiKey, makeWebhookEndpoint } from '../test/fixtures';

spyOnToasts();

let fetchMock: ReturnType<typeof vi.fn>;

/** The settings lists (keys, webhooks, deliveries) load on their own: they answer empty unless a test says else. */
const LISTS = ['/api/api-keys', '/api/webhooks', '/api/webhooks/deliveries', '/api/brand-kit'];
const isListRead = (url: unknown, init?: RequestInit) =>
  LISTS.includes(String(url)) && (init?.method ?? 'GET') === 'GET';
/** Answers every call but the list reads with `res`. */
function answer(res: Response | ((url: string, init?: RequestInit) => Response), lists: Record<string, unknown> = {}) {
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (isListRead(url, init)) return jsonResponse(lists[url] ?? (url === '/api/brand-kit' ? DEFAULT_BRAND_KIT : []));
    return typeof res === 'function' ? res(url, init) : res;
  });
}
/** The calls that are not list reads, in order. */
const actions = () => fetchMock.mock.calls.filter(([url, init]) => !isListRead(url, init as RequestInit | undefined));

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('SettingsPage', () => {
  it('shows the e-mail read-only and toggles notifications', async () => {
    answer(jsonResponse({ notify: true }));
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser({ notify: false }) } });

    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    const toggle = screen.getByRole('switch', { name: 'Email Notifications' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await userEvent.click(toggle);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Notifications enabled!'));
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    const [url, init] = actions()[0]!;
    expect(url).toBe('/api/user/me/notify');
    expect(init).toMatchObject({ method: 'PUT', body: '{"notify":true}' });
  });

  it('reverts the switch when the update fails', async () => {
    answer(jsonResponse({ detail: 'nope' }, 500));
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser({ notify: true }) } });
    const toggle = screen.getByRole('switch', { name: 'Email Notifications' });

    await userEvent.click(toggle);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update notification settings'));
    expect(toggle).toHaveAttribute('aria-checked', 'true');
  });

  it('deletes the account after confirmation, then logs out', async () => {
    answer(new Response(null, { status: 204 }));
    const logout = vi.fn(async () => {});
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser(), logout } });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await screen.findByRole('alertdialog');
    expect(actions()).toEqual([]);
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete Account' }).at(-1)!);

    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
    expect(actions()[0]![0]).toBe('/api/user/me');
    expect(actions()[0]![1]).toMatchObject({ method: 'DELETE' });
  });

  it("shows 'Failed to delete account' when the call fails", async () => {
    answer(jsonResponse({ detail: 'x' }, 500));
    const logout = vi.fn(async () => {});
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser(), logout } });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await screen.findByRole('alertdialog');
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete Account' }).at(-1)!);

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to delete account'));
    expect(logout).not.toHaveBeenCalled();
  });

  it('creates an API key, shows it once with a copy button, and revokes a key', async () => {
    const key = makeApiKey({ id: 7, name: 'Zapier', created_at: '2026-11-23T10:00:00.000Z' });
    answer(
      (url, init) =>
        init?.method === 'POST'
          ? jsonResponse({ ...key, last_used_at: null, key: 'hrk_abcdefgh-the-whole-secret' }, 201)
          : new Response(null, { status: 204 }),
      { '/api/api-keys': [{ ...key, last_used_at: '2026-11-23T11:00:00.000Z' }] },
    );
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser() } });

    expect(await screen.findByText('Zapier')).toBeInTheDocument();
    expect(screen.getByText(/hrk_abcdefgh…/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Key name'), 'Zapier');
    await userEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    const shown = await screen.findByLabelText('New key "Zapier"');
    expect(shown).toHaveValue('hrk_abcdefgh-the-whole-secret');
    expect(screen.getByText('Copy this key now. For your security it will not be shown again.')).toBeInTheDocument();
    expect(actions()[0]![1]).toMatchObject({ method: 'POST', body: '{"name":"Zapier","scope":"user"}' });
    // Only administrators are offered an admin key.
    expect(screen.queryByLabelText(/Admin key/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('New key "Zapier"')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Revoke Zapier' }));
    // Revoking asks first.
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Revoked "Zapier"'));
    expect(actions().at(-1)).toEqual(['/api/api-keys/7', expect.objectContaining({ method: 'DELETE' })]);
  });

  it('an administrator makes an admin key only on purpose, and it is marked as such', async () => {
    const key = makeApiKey({ id: 9, name: 'Ops', prefix: 'hrk_zyxwvuts', created_at: '2026-11-23T10:00:00.000Z' });
    answer(() => jsonResponse({ ...key, scope: 'admin', last_used_at: null, key: 'hrk_zyxwvuts-secret' }, 201), {
      '/api/api-keys': [{ ...key, scope: 'admin', last_used_at: null }],
    });
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser({ is_admin: true }) } });

    expect(await screen.findByTestId('admin-key-badge')).toHaveTextContent('Admin');
    const adminBox = screen.getByLabelText(/Admin key/);
    expect(adminBox).not.toBeChecked();
    await userEvent.type(screen.getByLabelText('Key name'), 'Ops');
    await userEvent.click(adminBox);
    await userEvent.click(screen.getByRole('button', { name: 'Create Key' }));
    await screen.findByLabelText('New key "Ops"');
    expect(actions()[0]![1]).toMatchObject({ method: 'POST', body: '{"name":"Ops","scope":"admin"}' });
  });

  it('adds a webhook (secret shown once), shows the server refusal, sends a test and lists deliveries', async () => {
    const endpoint = makeWebhookEndpoint(3);
    const delivery = {
      id: 1,
      endpoint_id: 3,
      url: endpoint.url,
      event_id: 'evt_1',
      event_type: 'job.completed',
      status: 'pending',
      attempts: 2,
      last_status_code: 500,
      last_error: 'The endpoint answered HTTP 500',
      created_at: '2026-11-23T10:00:00.000Z',
      last_attempt_at: '2026-11-23T10:01:00.000Z',
      next_attempt_at: '2026-11-23T10:11:00.000Z',
    };
    answer(
      (url, init) => {
        if (url === '/api/webhooks' && init?.method === 'POST') {
          return String(init.body).includes('10.0.0.1')
            ? jsonResponse({ detail: 'This address points to a private or local network.' }, 422)
            : jsonResponse({ ...endpoint, secret: 'whsec_secret' }, 201);
        }
        return jsonResponse({ delivery_id: 2 }, 202);
      },
      { '/api/webhooks': [endpoint], '/api/webhooks/deliveries': [delivery] },
    );
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser() } });

    expect(await screen.findByText('The endpoint answered HTTP 500', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Retrying')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Endpoint URL'), 'https://10.0.0.1/hook');
    await userEvent.click(screen.getByRole('button', { name: 'Add Endpoint' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('This address points to a private or local network.'));

    await userEvent.clear(screen.getByLabelText('Endpoint URL'));
    await userEvent.type(screen.getByLabelText('Endpoint URL'), endpoint.url);
    await userEvent.click(screen.getByRole('button', { name: 'Add Endpoint' }));
    expect(await screen.findByLabelText(`Signing secret for ${endpoint.url}`)).toHaveValue('whsec_secret');

    await userEvent.click(screen.getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Test event queued'));
    expect(actions().at(-1)).toEqual(['/api/webhooks/3/test', expect.objectContaining({ method: 'POST' })]);
  });

  it("shows a paused endpoint with Resume, and the server's message when tests come too fast", async () => {
    const paused = makeWebhookEndpoint(4, {
      url: 'https://dead.example.com/in',
      paused_at: '2026-11-23T12:00:00.000Z',
    });
    const active = makeWebhookEndpoint(5, { url: 'https://live.example.com/in' });
    const tooFast = INTEGRATION_MESSAGES.webhookTestRateLimited(5);
    answer(
      (url) =>
        url === '/api/webhooks/4/resume'
          ? jsonResponse({ ...paused, paused_at: null })
          : jsonResponse({ detail: tooFast }, 429),
      { '/api/webhooks': [paused, active] },
    );
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser() } });

    expect(await screen.findByText('Paused')).toBeInTheDocument();
    expect(screen.getByText(INTEGRATION_MESSAGES.webhookPausedNotice, { exact: false })).toBeInTheDocument();
    // A paused endpoint offers Resume instead of a test; the active one keeps its Send test.
    expect(screen.getAllByRole('button', { name: 'Send test' })).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: `Resume ${paused.url}` }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Endpoint resumed'));
    expect(actions().at(-1)).toEqual(['/api/webhooks/4/resume', expect.objectContaining({ method: 'POST' })]);

    await userEvent.click(screen.getByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(tooFast));
  });
});
