import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { GeneratePage } from './generate-page';

/** An Image that fails to load any URL containing "broken" and never finishes the others (jsdom loads nothing). */
class FakeImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  crossOrigin = '';
  set src(url: string) {
    if (url.includes('broken')) queueMicrotask(() => this.onerror?.());
  }
}

afterEach(() => vi.unstubAllGlobals());

describe('GeneratePage', () => {
  it('says which image URL could not be loaded, beside its own field', async () => {
    vi.stubGlobal('Image', FakeImage);
    renderWithProviders(<GeneratePage />, { route: '/generate' });
    expect(screen.getByLabelText('Character image URL')).toHaveAttribute('type', 'url');
    expect(screen.queryByText('Could not load this image.')).toBeNull();

    await userEvent.type(screen.getByLabelText('Product image URL'), 'https://example.test/broken.png');
    const error = await screen.findByText('Could not load this image.');
    expect(error.parentElement).toContainElement(screen.getByLabelText('Product image URL'));

    await userEvent.type(screen.getByLabelText('Character image URL'), 'https://example.test/actor.png');
    expect(screen.getAllByText('Could not load this image.')).toHaveLength(1);
  });
});
