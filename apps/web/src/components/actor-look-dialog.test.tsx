import type { ActorLook } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { ActorLookDialog } from './actor-look-dialog';

const look = (over: Partial<ActorLook> = {}): ActorLook => ({
  avatar_id: 4,
  photo_url: null,
  photoreal: { available: true, reason: null, made: false, price: 0.1, job_id: null },
  mouth_stills: {
    available: false,
    reason: 'Make this actor photoreal first: real mouths are made from a photo.',
    made: false,
    price: 0.5,
    job_id: null,
  },
  ...over,
});

describe('ActorLookDialog', () => {
  it('shows the price before spending, asks once, then says Photo', async () => {
    const made = look({
      photo_url: 'users/1/actors/catalogue-4-photoreal-abc.png',
      photoreal: { available: true, reason: null, made: true, price: 0.1, job_id: null },
    });
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`);
        // Once asked, the server answers the made look to every read.
        return jsonResponse(calls.some((c) => c.startsWith('POST')) ? made : look());
      }),
    );
    renderWithProviders(<ActorLookDialog avatarId={4} name="Actor 4" open onOpenChange={() => undefined} />);
    const button = await screen.findByRole('button', { name: /Make photoreal.*0\.10 credits/ });
    // Mouths are not offered yet, and say why.
    expect(screen.getByTestId('look-unavailable')).toHaveTextContent('Make this actor photoreal first');
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('look-photo')).toHaveTextContent('Photo'));
    expect(screen.getByText('Photoreal: Draft videos animate the photo.')).toBeInTheDocument();
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([expect.stringMatching(/\/avatars\/4\/photoreal$/)]);
    vi.unstubAllGlobals();
  });
});
