import { type HookPack, MESSAGES } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import { useHookPack } from '../../api/get-hook-pack';
import { makeGeneratedCharacter, makePack, makePreview, mockApi } from '../../test/fixtures';
import { renderAtPack, stepProps } from '../../test/render-wizard';
import { PreviewStep } from './preview-step';
import { spyOnToasts } from '../../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());
// jsdom has no canvas: the editor draws nothing, which is fine here.
beforeEach(() => {
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});

function Harness() {
  const pack = useHookPack(5, { pollPreviews: true });
  return <PreviewStep {...stepProps(pack.data ?? null)} />;
}

const character = (id: number, selected = true) => makeGeneratedCharacter(id, { selected });

describe('PreviewStep approval', () => {
  it('approves with status accepted and unapproves with status rejected', async () => {
    let preview = makePreview();
    const pack = (): HookPack => makePack({ generated_characters: [character(21)], preview_characters: [preview] });
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(pack()),
      'PUT /hooks/preview/11': ({ body }) => jsonResponse((preview = makePreview(body as object))),
    });
    renderAtPack(<Harness />);

    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByRole('button', { name: 'Approved', pressed: true })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ approved: true, status: 'accepted' });

    await userEvent.click(screen.getByRole('button', { name: 'Approved' }));
    expect(await screen.findByRole('button', { name: 'Approve', pressed: false })).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ approved: false, status: 'rejected' });
    expect(calls.some((c) => c.path === '/hooks/generate-preview')).toBe(false);
  });

  it('keeps an approval made while a poll is in flight, even when that poll is the last one', async () => {
    // Preview 12 is still rendering, so the pack is polled; the poll that sees it done is answered after the click.
    let previews = [makePreview(), makePreview({ id: 12, generated_character_id: 22, url: null })];
    let hold: Promise<void> | null = null;
    let release = () => {};
    let heldAsks = 0;
    const pack = () =>
      makePack({ generated_characters: [character(21), character(22)], preview_characters: structuredClone(previews) });
    mockApi({
      'GET /hooks/5': async () => {
        const answer = pack();
        if (hold) {
          heldAsks++;
          await hold;
        }
        return jsonResponse(answer);
      },
      'PUT /hooks/preview/11': ({ body }) => {
        previews = previews.map((p) => (p.id === 11 ? { ...p, ...(body as object) } : p));
        return jsonResponse(previews[0]);
      },
    });
    renderAtPack(<Harness />);
    const approve = (await screen.findAllByRole('button', { name: 'Approve' }))[0]!;
    previews = previews.map((p) => ({ ...p, url: `previews/${p.id}.png` }));
    hold = new Promise((resolve) => (release = resolve));
    await waitFor(() => expect(heldAsks).toBeGreaterThan(0), { timeout: 3000 });
    await userEvent.click(approve);
    hold = null;
    release();
    await waitFor(() => expect(screen.getByText('1 approved')).toBeInTheDocument());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByRole('button', { name: /^Approved?$/ }).map((b) => b.getAttribute('aria-pressed'))).toEqual([
      'true',
      'false',
    ]);
  });

  it('reverts and toasts when the approval cannot be saved', async () => {
    mockApi({
      'GET /hooks/5': () =>
        jsonResponse(makePack({ generated_characters: [character(21)], preview_characters: [makePreview()] })),
      'PUT /hooks/preview/11': () => jsonResponse({ detail: 'boom' }, 500),
    });
    renderAtPack(<Harness />);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.hookPacks.approvalFailed));
    expect(screen.getByRole('button', { name: 'Approve', pressed: false })).toBeInTheDocument();
  });

  it("shows the server's reason when a preview is gone, and reads the pack again (decision 198)", async () => {
    let previews = [makePreview()];
    mockApi({
      'GET /hooks/5': () =>
        jsonResponse(makePack({ generated_characters: [character(21)], preview_characters: previews })),
      'PUT /hooks/preview/11': () => {
        previews = [];
        return jsonResponse({ detail: MESSAGES.hookPacks.previewNotFound }, 404);
      },
    });
    renderAtPack(<Harness />);
    await userEvent.click(await screen.findByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.hookPacks.previewNotFound));
    // The pack read again has no preview for the character: its card waits for a new one instead.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument());
  });

  it('generates missing previews (JSON call); a not-yet-generated preview opens the editor instead', async () => {
    const { calls } = mockApi({
      'GET /hooks/5': () => jsonResponse(makePack({ generated_characters: [character(22)] })),
      'POST /hooks/generate-preview': () =>
        jsonResponse({ detail: 'Insufficient credits to generate preview images.' }, 402),
    });
    renderAtPack(<Harness />);
    await waitFor(() => expect(calls.some((c) => c.path === '/hooks/generate-preview')).toBe(true));
    expect(calls.find((c) => c.path === '/hooks/generate-preview')?.body).toEqual({
      hook_pack_id: 5,
      character_ids: [22],
    });
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Insufficient credits to generate preview images.'));

    await userEvent.click(screen.getByRole('button', { name: 'Position product' }));
    expect(await screen.findByRole('dialog', { name: 'Position Product' })).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('a preview another tab already ordered: the 409 toasts its message and shows that preview', async () => {
    let ordered = false;
    const { calls } = mockApi({
      'GET /hooks/5': () =>
        jsonResponse(
          makePack({
            generated_characters: [character(22)],
            preview_characters: ordered ? [makePreview({ generated_character_id: 22 })] : [],
          }),
        ),
      'POST /hooks/generate-preview': () => {
        ordered = true;
        return jsonResponse({ detail: MESSAGES.server.previewInProgress }, 409);
      },
    });
    renderAtPack(<Harness />);
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.server.previewInProgress));
    expect(toast.error).not.toHaveBeenCalledWith(MESSAGES.hookPacks.previewImagesFailed);
    // The pack is read again, so the other tab's preview appears (its Approve button) and nothing is re-ordered.
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/hooks/generate-preview')).toHaveLength(1);
  });

  it('a Regenerate another tab already started: the 409 toasts its message', async () => {
    mockApi({
      'GET /hooks/5': () =>
        jsonResponse(makePack({ generated_characters: [character(21)], preview_characters: [makePreview()] })),
      'POST /hooks/preview/11/regenerate': () => jsonResponse({ detail: MESSAGES.server.previewInProgress }, 409),
    });
    renderAtPack(<Harness />);
    await userEvent.click(await screen.findByRole('button', { name: /Redo/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Regenerate product placement/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.server.previewInProgress));
    expect(toast.error).not.toHaveBeenCalledWith(MESSAGES.hookPacks.regenerateFailed);
  });
});
