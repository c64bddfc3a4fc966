import { MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithProviders } from '@/test/render';
import { NotifyBanner } from './notify-banner';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

describe('NotifyBanner', () => {
  it('is hidden when the user already gets notifications', () => {
    renderWithProviders(<NotifyBanner />, { auth: { user: makeUser({ notify: true }) } });
    expect(screen.queryByTestId('notify-banner')).not.toBeInTheDocument();
  });

  it('is shown when notify is false, and Notify Me sets it and refreshes the user', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ notify: true }));
    vi.stubGlobal('fetch', fetchMock);
    const refreshUser = vi.fn(async () => null);
    renderWithProviders(<NotifyBanner />, { auth: { user: makeUser({ notify: false }), refreshUser } });
    await userEvent.click(screen.getByRole('button', { name: 'Notify Me' }));
    await waitFor(() => expect(refreshUser).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/user/me/notify');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(String(init.body))).toEqual({ notify: true });
    expect(toast.success).toHaveBeenCalledWith(MESSAGES.notifications.enabled);
    vi.unstubAllGlobals();
  });
});
