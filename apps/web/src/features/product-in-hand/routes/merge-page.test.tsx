import type { AvatarWithStatus } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@hookreel/contracts';
import { toast } from 'sonner';
import { jsonResponse, makeAvatar, makeCharacter, makeJob, makeProject, renderWithProviders } from '@/test/render';
import type { Project } from '@hookreel/contracts';
import { Route, Routes } from 'react-router';
import { MergePage, MergeScreen, withStored } from './merge-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

const project = makeProject({
  id: 9,
  name: 'Serum',
  file_path: 'products/9.png',
  script: 'Try it today',
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-01T00:00:00Z',
});
const avatar = (id: number) => makeAvatar(id, { merge_status: 'not_merged' });
const status = (id: number, s: AvatarWithStatus['status']): AvatarWithStatus => ({
  avatar_id: id,
  status: s,
  merged_url: s === 'merged' ? `merged/${id}.png` : null,
  job_id: null,
  progress: s === 'merged' ? 100 : 0,
  eta_seconds: null,
  placement: null,
});

function mockApi(statuses: AvatarWithStatus[], queue = () => jsonResponse({ total_jobs: 2 })) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1), avatar(2)]);
      if (url.startsWith('/api/merge/avatars-with-status/9')) return jsonResponse(statuses);
      if (url.startsWith('/api/projects/9')) return jsonResponse(project);
      if (url.startsWith('/api/jobs/product-in-hand/9/queue-videos')) return queue();
      return jsonResponse({ detail: 'unexpected' }, 500);
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('MergeScreen time left while applying', () => {
  it('says the measured time left, and no figure before anything was measured', async () => {
    mockApi([
      { ...status(1, 'merging'), progress: 40, eta_seconds: 7 },
      { ...status(2, 'merging'), progress: 0, eta_seconds: null },
    ]);
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />);
    expect(await screen.findByText('About 7 s left')).toBeInTheDocument();
    expect(screen.getByText('Working out the time left…')).toBeInTheDocument();
  });
});

describe('MergeScreen Generate Videos', () => {
  it('is disabled until every actor is merged', async () => {
    mockApi([status(1, 'merged'), status(2, 'not_merged')]);
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />);
    await waitFor(() => expect(screen.getAllByTestId('merge-card')[0]).toHaveAttribute('data-state', 'merged'));
    expect(screen.getAllByTestId('merge-card')[1]).toHaveAttribute('data-state', 'not_merged');
    expect(screen.getByRole('button', { name: /^Generate Videos/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Re-Position/ })).toBeInTheDocument();
  });

  it('is enabled when all are merged and the script is non-empty, disabled with a blank script', async () => {
    mockApi([status(1, 'merged'), status(2, 'merged')]);
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />);
    const button = screen.getByRole('button', { name: /^Generate Videos/ });
    await waitFor(() => expect(button).toBeEnabled());
    const script = screen.getByLabelText('Script');
    await userEvent.clear(script);
    await userEvent.type(script, '   ');
    expect(button).toBeDisabled();
  });

  it('queues the videos, says so in the documented words and goes to /jobs', async () => {
    mockApi([status(1, 'merged'), status(2, 'merged')]);
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />, { route: '/product-in-hand/9/merge' });
    const button = screen.getByRole('button', { name: /^Generate Videos/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/jobs'));
    expect(toast.success).toHaveBeenCalledWith(MESSAGES.jobs.queued);
  });

  it('saves the picked caption style with the script before queueing, in one PUT', async () => {
    const calls: { url: string; method: string; body: unknown }[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        calls.push({ url, method, body: init.body ? JSON.parse(String(init.body)) : undefined });
        if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1), avatar(2)]);
        if (url.startsWith('/api/merge/avatars-with-status/9'))
          return jsonResponse([status(1, 'merged'), status(2, 'merged')]);
        if (url === '/api/projects/9' && method === 'PUT') return jsonResponse({ ...project, caption_style: 'boxed' });
        if (url.startsWith('/api/jobs/product-in-hand/9/queue-videos')) return jsonResponse({ total_jobs: 2 });
        return jsonResponse({ detail: 'unexpected' }, 500);
      }),
    );
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />, { route: '/product-in-hand/9/merge' });
    expect(screen.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Boxed lines/ }));
    const button = screen.getByRole('button', { name: /^Generate Videos/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/jobs'));
    const writes = calls.filter((c) => c.method !== 'GET').map((c) => [c.method, c.url.split('?')[0], c.body]);
    expect(writes).toEqual([
      ['PUT', '/api/projects/9', { caption_style: 'boxed' }],
      ['POST', '/api/jobs/product-in-hand/9/queue-videos', undefined],
    ]);
  });

  it('says the videos are already on their way when another tab queued them (409), and stays', async () => {
    vi.mocked(toast.success).mockClear();
    mockApi([status(1, 'merged'), status(2, 'merged')], () =>
      jsonResponse({ detail: MESSAGES.server.projectVideosInProgress }, 409),
    );
    renderWithProviders(<MergeScreen project={project} actorIds={[1, 2]} />, { route: '/product-in-hand/9/merge' });
    const button = screen.getByRole('button', { name: /^Generate Videos/ });
    await waitFor(() => expect(button).toBeEnabled());
    await userEvent.click(button);
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        MESSAGES.server.projectVideosInProgress,
        expect.objectContaining({ action: expect.objectContaining({ label: 'View jobs' }) }),
      ),
    );
    expect(screen.getByTestId('location')).toHaveTextContent('/product-in-hand/9/merge');
    expect(toast.success).not.toHaveBeenCalledWith(MESSAGES.jobs.queued);
  });
});

describe('the merge screen language choices', () => {
  it("offer the project's stored language and accent when the screen's own list lacks them", () => {
    expect(withStored(['english'] as const, 'spanish')).toEqual(['english', 'spanish']);
    expect(withStored(['american'] as const, 'british')).toEqual(['american', 'british']);
    expect(withStored(['english'] as const, 'english')).toEqual(['english']);
  });
});

describe('MergeScreen music bed', () => {
  it('offers the music bed beside the caption style and stores an uploaded track on the project', async () => {
    const puts: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url === '/api/projects/9/music' && init.method === 'PUT') {
          puts.push(((init.body as FormData).get('music') as File).name);
          return jsonResponse({ ...project, music_url: 'static/users/1/projects/music-1.m4a' });
        }
        if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1), avatar(2)]);
        if (url.startsWith('/api/merge/avatars-with-status/9')) return jsonResponse([status(1, 'merged')]);
        return jsonResponse({ detail: 'unexpected' }, 500);
      }),
    );
    renderWithProviders(<MergeScreen project={project} actorIds={[1]} />);
    const field = screen.getByTestId('music-bed-field');
    expect(field).toHaveTextContent('No music');
    const wav = new Uint8Array(
      [...'RIFF']
        .map((c) => c.charCodeAt(0))
        .concat(
          [0, 0, 0, 0],
          [...'WAVE'].map((c) => c.charCodeAt(0)),
        ),
    );
    await userEvent.upload(screen.getByLabelText('Upload music'), new File([wav], 'bed.wav', { type: 'audio/wav' }));
    await waitFor(() => expect(puts).toEqual(['bed.wav']));
  });
});

describe('MergePage opened from its address', () => {
  const character = (id: number, selected: boolean) => makeCharacter(id, { selected });
  const openAt = (withProject: Project) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1), avatar(2), avatar(3)]);
        if (url.startsWith('/api/merge/avatars-with-status/9')) return jsonResponse([status(1, 'merged')]);
        if (url.startsWith('/api/projects/9')) return jsonResponse(withProject);
        return jsonResponse({ detail: 'unexpected' }, 500);
      }),
    );
    renderWithProviders(
      <Routes>
        <Route path="/product-in-hand/:projectId/merge" element={<MergePage />} />
        <Route path="*" element={null} />
      </Routes>,
      { route: '/product-in-hand/9/merge' },
    );
  };

  it('resumes with the actors the project has selected on the server (a reload, a bookmark)', async () => {
    openAt({ ...project, characters: [character(1, true), character(2, true), character(3, false)] });
    expect(await screen.findAllByTestId('merge-card')).toHaveLength(2);
    expect(screen.getByTestId('location')).toHaveTextContent('/product-in-hand/9/merge');
  });

  it('goes back to choosing actors when none is selected', async () => {
    openAt({ ...project, characters: [character(3, false)] });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/product-in-hand/9/select-actor'));
  });
});

describe('MergeScreen product cut-out (decision 214)', () => {
  it('warns with the cut-out preview and holds Apply until the cut-out is accepted', async () => {
    const review = makeProject({
      ...project,
      cutout_check: {
        verdict: 'needs-review',
        fixed: [],
        reasons: ["The product runs into the photo's edge (39% of an edge): it will show a straight cut."],
        cutout_url: 'users/1/projects/9-ab-cutout.png',
        accepted: false,
      },
    });
    const accepted = { ...review, cutout_check: { ...review.cutout_check!, accepted: true } };
    const fetchMock = vi.fn(async (url: string) => {
      if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1), avatar(2)]);
      if (url.startsWith('/api/merge/avatars-with-status/9')) return jsonResponse([status(1, 'not_merged')]);
      if (url.startsWith('/api/merge/accept-cutout/9')) return jsonResponse(accepted);
      return jsonResponse({ detail: 'unexpected' }, 500);
    });
    vi.stubGlobal('fetch', fetchMock);
    const { rerender } = renderWithProviders(<MergeScreen project={review} actorIds={[1]} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Check the cut-out before you go on');
    expect(screen.getByRole('img', { name: 'Product cut-out preview on a checkerboard' })).toHaveAttribute(
      'src',
      '/api/static/users/1/projects/9-ab-cutout.png',
    );
    expect(screen.getByRole('button', { name: /Apply product/ })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Use this cut-out anyway' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/merge/accept-cutout/9', expect.anything()));
    rerender(<MergeScreen project={accepted} actorIds={[1]} />);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(screen.getByRole('button', { name: /Apply product/ })).toBeEnabled());
  });

  it('checks a product that has no check yet before Apply is offered', async () => {
    const unchecked = makeProject({ ...project, cutout_check: null });
    const fetchMock = vi.fn(async (url: string) => {
      if (url.startsWith('/api/avatars/')) return jsonResponse([avatar(1)]);
      if (url.startsWith('/api/merge/avatars-with-status/9')) return jsonResponse([status(1, 'not_merged')]);
      if (url.startsWith('/api/merge/cutout-check/9')) return jsonResponse({ job_id: 77 });
      if (url.startsWith('/api/jobs/77')) return jsonResponse(makeJob({ id: 77, status: 'in_progress' }));
      return jsonResponse({ detail: 'unexpected' }, 500);
    });
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<MergeScreen project={unchecked} actorIds={[1]} />);
    expect(await screen.findByTestId('cutout-checking')).toHaveTextContent('Checking the product cut-out');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/merge/cutout-check/9', expect.anything()));
    expect(screen.getByRole('button', { name: /Apply product/ })).toBeDisabled();
  });
});
