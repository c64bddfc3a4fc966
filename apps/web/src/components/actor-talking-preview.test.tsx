import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { ActorTalkingPreview } from './actor-talking-preview';

afterEach(() => vi.unstubAllGlobals());

/** A card as the pickers draw one: a button around the picture. */
function renderCard(props: { previewUrl: string | null; avatarId?: number }) {
  renderWithProviders(
    <button type="button">
      <ActorTalkingPreview photoUrl="catalogue/actor-a1.png" name="Actor 1" decorative {...props} />
      Actor 1
    </button>,
  );
  return screen.getByRole('button');
}

describe('ActorTalkingPreview', () => {
  it('asks for a preview only once the card is pointed at, shows that it is being made, then plays it', async () => {
    const answers = [
      { status: 'rendering', preview_url: null },
      { status: 'ready', preview_url: 'catalogue/actor-a1-talking.mp4' },
    ];
    const fetchMock = vi.fn(async () => jsonResponse(answers.shift() ?? answers[0]));
    vi.stubGlobal('fetch', fetchMock);
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const card = renderCard({ previewUrl: null, avatarId: 7 });
      expect(fetchMock).not.toHaveBeenCalled();

      await userEvent.hover(card);
      expect(await screen.findByRole('status')).toHaveTextContent('Preparing preview…');
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toMatch(/\/avatars\/7\/talking-preview$/);
      expect(init.method).toBe('POST');

      await vi.advanceTimersByTimeAsync(3_500);
      const video = await screen.findByTestId('actor-talking-preview');
      expect(video.getAttribute('src')).toMatch(/catalogue\/actor-a1-talking\.mp4$/);
      expect(screen.queryByRole('status')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks when the card is reached with the keyboard too', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse({ status: 'ready', preview_url: 'catalogue/actor-a1-talking.mp4' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderCard({ previewUrl: null, avatarId: 7 });
    await userEvent.tab();
    expect(await screen.findByTestId('actor-talking-preview')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('never asks for an actor whose preview is known, or without an actor id', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    const card = renderCard({ previewUrl: 'creators/x-talking.mp4', avatarId: 7 });
    await userEvent.hover(card);
    expect(screen.getByTestId('actor-talking-preview')).toBeInTheDocument();
    // Decoration on a card that names the actor: the card's name stays the actor's.
    expect(card).toHaveAccessibleName('Actor 1');
    await userEvent.unhover(card);
    await waitFor(() => expect(fetchMock).not.toHaveBeenCalled());
  });

  it('stays a picture when no actor id is given', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({}));
    vi.stubGlobal('fetch', fetchMock);
    const card = renderCard({ previewUrl: null });
    await userEvent.hover(card);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('actor-talking-preview')).toBeNull();
  });
});
