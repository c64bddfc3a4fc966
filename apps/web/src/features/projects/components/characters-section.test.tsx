import { screen, waitFor } from '@testing-library/react';
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

  it("'I don't know' skips the description", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([makeAvatar(5)])),
    );
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Add Character' }));
    await userEvent.click(screen.getByRole('button', { name: "I don't know" }));
    expect(await screen.findByRole('button', { name: 'Add 0 Characters' })).toBeDisabled();
    vi.unstubAllGlobals();
  });
});
