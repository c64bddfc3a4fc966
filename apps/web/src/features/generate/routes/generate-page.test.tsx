import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { GeneratePage } from './generate-page';

/** An Image that fails to load any URL containing "broken" and never finishes the others (jsdom loads nothing). */
const loaded: string[] = [];
class FakeImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  crossOrigin = '';
  set src(url: string) {
    loaded.push(url);
    if (url.includes('broken')) queueMicrotask(() => this.onerror?.());
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  loaded.length = 0;
});

describe('GeneratePage', () => {
  it('has the server fetch a pasted address and shows the copy from our origin', async () => {
    vi.stubGlobal('Image', FakeImage);
    const fetchMock = vi.fn(async () =>
      jsonResponse({ file_path: 'users/1/remote-images/abc.png', width: 40, height: 30 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<GeneratePage />, { route: '/generate' });
    expect(screen.getByLabelText('Character image URL')).toHaveAttribute('type', 'url');

    await userEvent.type(screen.getByLabelText('Product image URL'), 'https://shop.example/serum.png');
    await waitFor(() => expect(loaded).toContain('/api/static/users/1/remote-images/abc.png'));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/generate/remote-image');
    expect(JSON.parse(String(init.body))).toEqual({ url: 'https://shop.example/serum.png' });
    expect(loaded.some((u) => u.startsWith('https://shop.example'))).toBe(false);
  });

  it("says the server's reason beside the field it belongs to, and loads our own images directly", async () => {
    vi.stubGlobal('Image', FakeImage);
    const reason = 'This address points inside a private network, which cannot be fetched.';
    const fetchMock = vi.fn(async () => jsonResponse({ detail: reason }, 422));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<GeneratePage />, { route: '/generate' });

    await userEvent.type(screen.getByLabelText('Product image URL'), 'http://10.0.0.8/a.png');
    const error = await screen.findByText(reason);
    expect(error.parentElement).toContainElement(screen.getByLabelText('Product image URL'));
    expect(screen.getByLabelText('Product image URL')).toHaveAttribute('aria-invalid', 'true');

    await userEvent.type(screen.getByLabelText('Character image URL'), '/api/static/catalogue/broken.png');
    expect(await screen.findByText('Could not load this image.')).toBeVisible();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
