import { type Avatar, MESSAGES, VALIDATION } from '@hookreel/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeAvatar, makeUser, renderWithProviders } from '@/test/render';
import { AvatarsPage } from './avatars-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

const avatar = (id: number, over: Partial<Avatar> = {}): Avatar =>
  makeAvatar(id, {
    prompt: id === 1 ? 'A chef' : null,
    name: null,
    x: 100,
    y: 200,
    width: 150,
    height: 100,
    rotation: 10,
    ...over,
  });

afterEach(() => vi.unstubAllGlobals());

const admin = { auth: { status: 'authenticated' as const, user: makeUser({ is_admin: true }), isAdmin: true } };
const member = { auth: { status: 'authenticated' as const, user: makeUser(), isAdmin: false } };

describe('AvatarsPage', () => {
  it('lists avatars with count, captions and bounds overlays', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([avatar(1), avatar(2, { x: null, y: null, width: null, height: null })])),
    );
    renderWithProviders(<AvatarsPage />, admin);
    expect(await screen.findByText('2 avatar(s) total')).toBeInTheDocument();
    expect(screen.getByText('A chef')).toBeInTheDocument();
    expect(screen.getByText('No prompt')).toBeInTheDocument();
    expect(screen.getAllByTestId('bounds-overlay')).toHaveLength(1);
  });

  it('shows the empty state', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([])),
    );
    renderWithProviders(<AvatarsPage />, admin);
    expect(await screen.findByText('No avatars yet')).toBeInTheDocument();
    expect(screen.getByText('Generated avatars will appear here')).toBeInTheDocument();
  });

  it('uploads picked files; a failure leaves the dialog and list as they were', async () => {
    let fail = true;
    const fetchMock = vi.fn(async (url: string) => {
      if (url === '/api/avatars/upload')
        return fail ? jsonResponse({ detail: 'File is too large (max 10MB)' }, 413) : jsonResponse([avatar(9)]);
      return jsonResponse([avatar(1)]);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<AvatarsPage />, admin);
    await screen.findByText('1 avatar(s) total');
    const files = [new File(['a'], 'a.png', { type: 'image/png' }), new File(['b'], 'b.png', { type: 'image/png' })];
    await userEvent.upload(screen.getByTestId('avatar-file-input'), files);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('2 file(s) selected')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove b.png' }));
    expect(within(dialog).getByText('1 file(s) selected')).toBeInTheDocument();

    // Upload waits for the uploader's consent, and the request carries it.
    const upload = within(dialog).getByRole('button', { name: 'Upload 1 Avatar(s)' });
    expect(upload).toBeDisabled();
    expect(within(dialog).getByText(VALIDATION.avatarConsentRequired)).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: /I have the consent of every person/ }));
    expect(upload).toBeEnabled();
    await userEvent.click(upload);
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/avatars/upload') as unknown as [
      string,
      { body: FormData },
    ];
    expect(sent[1].body.get('consent')).toBe('true');
    // The server said why: that is what the user reads, not a generic 'Please try again'.
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('File is too large (max 10MB)'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByText('1 avatar(s) total')).toBeInTheDocument();

    fail = false;
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Upload 1 Avatar(s)' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith(MESSAGES.avatars.uploaded(1)));
    expect(await screen.findByText('2 avatar(s) total')).toBeInTheDocument();
  });

  it('shows a normal user the library without upload, bounds or delete controls', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([avatar(1)])),
    );
    renderWithProviders(<AvatarsPage />, member);
    expect(await screen.findByText('1 avatar(s) total')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /New Avatars/ })).toBeNull();
    expect(screen.queryByTestId('avatar-file-input')).toBeNull();
    const card = screen.getByTestId('avatar-card');
    expect(card.tagName).not.toBe('BUTTON');
    await userEvent.click(card);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
