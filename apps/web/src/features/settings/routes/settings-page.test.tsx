import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithProviders } from '@/test/render';
import { SettingsPage } from './settings-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('SettingsPage', () => {
  it('shows the e-mail read-only and toggles notifications', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ notify: true }));
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser({ notify: false }) } });

    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');
    const toggle = screen.getByRole('switch', { name: 'Email Notifications' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');

    await userEvent.click(toggle);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Notifications enabled!'));
    expect(toggle).toHaveAttribute('aria-checked', 'true');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/user/me/notify');
    expect(init).toMatchObject({ method: 'PUT', body: '{"notify":true}' });
  });

  it('reverts the switch when the update fails', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ detail: 'nope' }, 500));
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser({ notify: true }) } });
    const toggle = screen.getByRole('switch', { name: 'Email Notifications' });

    await userEvent.click(toggle);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to update notification settings'));
    expect(toggle).toHaveAttribute('aria-checked', 'true');
  });

  it('deletes the account after confirmation, then logs out', async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const logout = vi.fn(async () => {});
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser(), logout } });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await screen.findByRole('alertdialog');
    expect(fetchMock).not.toHaveBeenCalled();
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete Account' }).at(-1)!);

    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/user/me');
    expect(fetchMock.mock.calls[0]![1]).toMatchObject({ method: 'DELETE' });
  });

  it("shows 'Failed to delete account' when the call fails", async () => {
    fetchMock.mockResolvedValue(jsonResponse({ detail: 'x' }, 500));
    const logout = vi.fn(async () => {});
    renderWithProviders(<SettingsPage />, { auth: { user: makeUser(), logout } });

    await userEvent.click(screen.getByRole('button', { name: 'Delete Account' }));
    await screen.findByRole('alertdialog');
    await userEvent.click(screen.getAllByRole('button', { name: 'Delete Account' }).at(-1)!);

    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Failed to delete account'));
    expect(logout).not.toHaveBeenCalled();
  });
});
