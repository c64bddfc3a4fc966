import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeAvatar, renderWithProviders } from '@/test/render';
import { CharactersSection, type EditorCharacter, mergeCharacters } from './characters-section';

function Harness({ initial = [] as EditorCharacter[] }) {
  const [chars, setChars] = useState(initial);
  return <CharactersSection characters={chars} onChange={setChars} />;
}

describe('mergeCharacters', () => {
  it('never duplicates an actor', () => {
    const out = mergeCharacters(
      [{ id: 1, name: 'A' }],
      [
        { id: 1, name: 'A' },
        { id: 2, name: 'B' },
        { id: 2, name: 'B' },
      ],
    );
    expect(out.map((c) => c.id)).toEqual([1, 2]);
  });
});

describe('CharactersSection', () => {
  it('walks description → picker; Next needs text, Add N is disabled with 0 and adds without duplicates', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([makeAvatar(1), makeAvatar(2), makeAvatar(3)])),
    );
    renderWithProviders(<Harness initial={[{ id: 1, name: 'Actor 1' }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Character' }));
    const next = screen.getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Character description'), 'a chef{Enter}');

    const add = await screen.findByRole('button', { name: 'Add 0 Characters' });
    expect(add).toBeDisabled();
    await waitFor(() => expect(screen.getByText('Actor 2')).toBeInTheDocument());
    // Actor 1 is already added: its tile is disabled.
    expect(screen.getByText(/Actor 1 \(added\)/).closest('button')).toBeDisabled();
    await userEvent.click(screen.getByText('Actor 2'));
    await userEvent.click(screen.getByText('Actor 3'));
    await userEvent.click(screen.getByText('Actor 3'));
    await userEvent.click(screen.getByRole('button', { name: 'Add 1 Characters' }));
    await waitFor(() => expect(screen.getAllByTestId('editor-character')).toHaveLength(2));

    await userEvent.click(screen.getByRole('button', { name: 'Remove Actor 2' }));
    expect(screen.getAllByTestId('editor-character')).toHaveLength(1);
    vi.unstubAllGlobals();
  });

  it("'I don't know' skips the description and lists the catalogue unranked", async () => {
    const fetchMock = vi.fn(async (_url: string) => jsonResponse([makeAvatar(5)]));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Character' }));
    await userEvent.click(screen.getByRole('button', { name: "I don't know" }));
    expect(await screen.findByRole('button', { name: 'Add 0 Characters' })).toBeDisabled();
    await screen.findByText('Actor 5');
    expect(String(fetchMock.mock.calls[0]![0])).not.toContain('description');
    expect(screen.queryByText('Best match')).not.toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('sends the description and shows the matching actors first, marked as the best match', async () => {
    // The server ranks by traits: for a young woman it returns the women first.
    const fetchMock = vi.fn(async (url: string) =>
      jsonResponse(
        new URL(url, 'http://x').searchParams.get('description')
          ? [makeAvatar(2, { name: 'Maya' }), makeAvatar(4, { name: 'Ana' }), makeAvatar(1, { name: 'Tom' })]
          : [makeAvatar(1, { name: 'Tom' }), makeAvatar(2, { name: 'Maya' }), makeAvatar(4, { name: 'Ana' })],
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Character' }));
    await userEvent.type(
      screen.getByLabelText('Character description'),
      '  young woman in her 20s with long brown hair {Enter}',
    );
    const group = await screen.findByRole('group', { name: 'Actors' });
    await waitFor(() => expect(within(group).getAllByRole('button')).toHaveLength(3));
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://x');
    expect(url.searchParams.get('description')).toBe('young woman in her 20s with long brown hair');
    const tiles = within(group).getAllByRole('button');
    expect(tiles[0]).toHaveTextContent('Maya');
    expect(tiles[0]).toHaveTextContent('Best match');
    expect(tiles[2]).toHaveTextContent('Tom');
    expect(
      screen.getByText(/Best matches for “young woman in her 20s with long brown hair” first/),
    ).toBeInTheDocument();
    await userEvent.click(tiles[0]!);
    await userEvent.click(screen.getByRole('button', { name: 'Add 1 Characters' }));
    await waitFor(() => expect(screen.getAllByTestId('editor-character')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Remove Maya' })).toBeInTheDocument();
    vi.unstubAllGlobals();
  });

  it('when matching fails, still offers the whole catalogue', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      new URL(url, 'http://x').searchParams.get('description')
        ? jsonResponse({ detail: 'Something went wrong' }, 500)
        : jsonResponse([makeAvatar(7)]),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Character' }));
    await userEvent.type(screen.getByLabelText('Character description'), 'a chef{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Show all actors' }, { timeout: 5000 }));
    await screen.findByText('Actor 7');
    expect(screen.queryByText('Could not match actors to your description.')).not.toBeInTheDocument();
    vi.unstubAllGlobals();
  });
});

describe('CharactersSection photo options', () => {
  it('shows the photoreal still on the tile and says Photo once the actor is made photoreal', async () => {
    const made = {
      avatar_id: 4,
      photo_url: 'users/1/actors/catalogue-4-photoreal-abc.png',
      photoreal: { available: true, reason: null, made: true, price: 0.1, job_id: null },
      mouth_stills: { available: true, reason: null, made: false, price: 0.5, job_id: null },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(made)),
    );
    renderWithProviders(<Harness initial={[{ id: 4, name: 'Actor 4', url: 'catalogue/4.png', catalogue: true }]} />);
    await userEvent.click(screen.getByRole('button', { name: 'Make photoreal…' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('editor-character')).getByTestId('actor-kind')).toHaveTextContent('Photo'),
    );
    expect(within(screen.getByTestId('editor-character')).getByAltText('Actor 4')).toHaveAttribute(
      'src',
      expect.stringContaining('catalogue-4-photoreal-abc.png'),
    );
    vi.unstubAllGlobals();
  });
});
