import type { GeneratedCharacter } from '@hookreel/contracts';
import { MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeCreator } from '@/test/render';
import { useHookPack } from '../../api/get-hook-pack';
import { useCharacterGeneration } from '../../lib/use-character-generation';
import { makeGeneratedCharacter, makePack, mockApi } from '../../test/fixtures';
import { renderAtPack, stepProps } from '../../test/render-wizard';
import { CharactersStep } from './characters-step';
import { spyOnToasts } from '../../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const TYPE = 'Young woman runner in a park';

function Harness() {
  const pack = useHookPack(5);
  const generation = useCharacterGeneration(5);
  return <CharactersStep {...stepProps(pack.data ?? null)} generation={generation} />;
}

const makeCharacter = (id: number, over: Partial<GeneratedCharacter> = {}) =>
  makeGeneratedCharacter(id, { prompt: TYPE, selected: false, ...over });

/** A server whose character list can be held: the answer is what the server held when it was asked. */
function characterServer(saveFails = false) {
  let characters = [makeCharacter(21), makeCharacter(22, { url: '' })];
  let hold: Promise<void> | null = null;
  let heldAsks = 0;
  const { calls } = mockApi({
    'GET /hooks/5': () => jsonResponse(makePack({ character_types: [{ id: 30, description: TYPE, order_index: 0 }] })),
    'GET /hooks/characters/5': async () => {
      const answer = structuredClone(characters);
      if (hold) {
        heldAsks++;
        await hold;
      }
      return jsonResponse(answer);
    },
    'POST /hooks/select-character/21': ({ url }) => {
      if (saveFails) return jsonResponse({ detail: 'boom' }, 500);
      const selected = url.searchParams.get('selected') === 'true';
      characters = characters.map((c) => (c.id === 21 ? { ...c, selected } : c));
      return jsonResponse(characters[0]);
    },
  });
  return {
    calls,
    /** The second portrait finishes; the next poll is answered only on release(). */
    finishAndHoldNextPoll() {
      characters = characters.map((c) => ({ ...c, url: `characters/${c.id}.png` }));
      let release = () => {};
      hold = new Promise((resolve) => (release = resolve));
      return {
        asked: () => heldAsks > 0,
        release: () => {
          hold = null;
          release();
        },
      };
    },
  };
}

describe('CharactersStep selection', () => {
  it('keeps a pick made while a poll is in flight, even when that poll is the last one', async () => {
    const server = characterServer();
    renderAtPack(<Harness />);
    const first = await screen.findByRole('button', { name: `${TYPE} — character 1` });
    expect(first).toHaveAttribute('aria-pressed', 'false');

    // The poll that sees every portrait done is answered after the click, with the selection as it was before.
    const poll = server.finishAndHoldNextPoll();
    await waitFor(() => expect(poll.asked()).toBe(true), { timeout: 3000 });
    await userEvent.click(first);
    expect(first).toHaveAttribute('aria-pressed', 'true');
    poll.release();

    await waitFor(() => expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1));
    // The list is read again once the server saved the pick, and the card stays picked.
    await waitFor(() => expect(screen.getByText('1 selected')).toBeInTheDocument());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('button', { name: `${TYPE} — character 1` })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: `${TYPE} — character 2` })).toHaveAttribute('aria-pressed', 'false');
  });

  it('puts the card back and says so when the pick cannot be saved', async () => {
    characterServer(true);
    renderAtPack(<Harness />);
    const first = await screen.findByRole('button', { name: `${TYPE} — character 1` });
    await userEvent.click(first);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.hookPacks.saveSelectionFailed));
    expect(screen.getByRole('button', { name: `${TYPE} — character 1` })).toHaveAttribute('aria-pressed', 'false');
  });
});

describe('CharactersStep own creators', () => {
  it('offers the user’s creators as Photo beside the Illustrated characters; picking one adds them to the pack', async () => {
    const maya = makeCreator(57, {
      url: 'users/1/creators/maya.png',
      preview_url: 'users/1/creators/maya-talking.mp4',
    });
    let characters: GeneratedCharacter[] = [makeCharacter(21)];
    const { calls } = mockApi({
      'GET /hooks/5': () =>
        jsonResponse(makePack({ character_types: [{ id: 30, description: TYPE, order_index: 0 }] })),
      'GET /hooks/characters/5': () => jsonResponse(characters),
      'GET /creators': () => jsonResponse([maya]),
      'POST /hooks/5/creators': () => {
        const added = makeCharacter(22, {
          url: maya.url,
          prompt: 'Maya',
          selected: true,
          character_type_id: null,
          kind: 'photo',
          creator_id: 57,
        });
        characters = [...characters, added];
        return jsonResponse(added);
      },
    });
    renderAtPack(<Harness />);
    expect(await screen.findByText(/Illustrated characters are drawn by Hookreel/)).toBeInTheDocument();
    const drawn = await screen.findByRole('button', { name: `${TYPE} — character 1` });
    expect(drawn).toHaveTextContent('Illustrated');
    const tile = await screen.findByRole('button', { name: 'Maya — your creator' });
    expect(tile).toHaveTextContent('Photo · yours');
    expect(tile).toHaveAttribute('aria-pressed', 'false');
    // Their talking preview loops on the tile.
    expect(screen.getByLabelText('Maya talking')).toHaveAttribute(
      'src',
      '/api/static/users/1/creators/maya-talking.mp4',
    );
    await userEvent.click(tile);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Maya — your creator' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/hooks/5/creators',
      body: { creator_id: 57 },
    });
    expect(screen.getByText('1 selected')).toBeInTheDocument();
    // The creator is not listed again among the drawn characters.
    expect(screen.queryByRole('region', { name: 'Maya' })).toBeNull();
  });
});
