import { MESSAGES, creatorConsentText } from '@hookreel/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeCreator, renderWithProviders } from '@/test/render';
import { CreatorsPage } from './creators-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

const maya = makeCreator(7, { url: 'users/1/creators/a.png' });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('CreatorsPage', () => {
  it('lists creators as photos with their consent, and shows why a photo is refused', async () => {
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (url === '/api/creators' && init?.method === 'POST')
        return jsonResponse({ detail: MESSAGES.avatars.face['no-face'] }, 422);
      return jsonResponse([maya]);
    });
    renderWithProviders(<CreatorsPage />);
    const card = await screen.findByTestId('creator-card');
    expect(within(card).getByText('Maya')).toBeInTheDocument();
    expect(within(card).getByTestId('actor-kind')).toHaveTextContent('Photo · yours');
    expect(within(card).getByText(/Consent confirmed .* by ada@example\.com/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add creator' }));
    const dialog = await screen.findByRole('dialog');
    const add = within(dialog).getByRole('button', { name: 'Add creator' });
    await userEvent.upload(
      within(dialog).getByLabelText('Photo', { exact: true }),
      new File([new Uint8Array([137, 80, 78, 71])], 'suit.png', { type: 'image/png' }),
    );
    await userEvent.type(within(dialog).getByLabelText('Name', { exact: true }), 'Sam');
    // The box names what Sam agreed to; nothing is sent until it is ticked.
    expect(within(dialog).getByTestId('consent-text')).toHaveTextContent(creatorConsentText('Sam'));
    expect(add).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox'));
    await userEvent.click(add);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.avatars.face['no-face']);
    const post = fetchMock.mock.calls.find(([, init]) => (init as RequestInit | undefined)?.method === 'POST');
    const form = (post![1] as RequestInit).body as FormData;
    expect(form.get('name')).toBe('Sam');
    expect(form.get('consent')).toBe('true');
    expect(form.get('photo')).toBeInstanceOf(File);
  });

  it('renames a creator', async () => {
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (init?.method === 'PATCH') return jsonResponse({ ...maya, name: 'Maya L' });
      return jsonResponse([maya]);
    });
    renderWithProviders(<CreatorsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Maya' }));
    const input = screen.getByLabelText('Creator name');
    await userEvent.clear(input);
    await userEvent.type(input, 'Maya L');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(([u, i]) => u === '/api/creators/7' && (i as RequestInit).method === 'PATCH'),
      ).toBe(true),
    );
  });

  it('shows the photo while the talking preview is made, then a muted looping video of them with the photo as poster', async () => {
    const fresh = { ...maya, created_at: new Date().toISOString() };
    let ready = false;
    fetchMock.mockImplementation(async () =>
      jsonResponse([ready ? { ...fresh, preview_url: 'users/1/creators/a-talking.mp4' } : fresh]),
    );
    renderWithProviders(<CreatorsPage />);
    const card = await screen.findByTestId('creator-card');
    expect(within(card).getByRole('img', { name: 'Maya' })).toHaveAttribute(
      'src',
      '/api/static/users/1/creators/a.png',
    );
    expect(within(card).getByTestId('preview-pending')).toHaveTextContent('Making their talking preview');
    ready = true;
    const video = await within(card).findByTestId('actor-talking-preview', undefined, { timeout: 6000 });
    expect(video).toHaveAttribute('src', '/api/static/users/1/creators/a-talking.mp4');
    expect(video).toHaveAttribute('poster', '/api/static/users/1/creators/a.png');
    expect((video as HTMLVideoElement).muted).toBe(true);
    expect(video).toHaveAttribute('loop');
    expect(within(card).queryByTestId('preview-pending')).toBeNull();
  }, 10_000);
});
