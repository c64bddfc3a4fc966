import { MESSAGES, VALIDATION, type Project } from '@hookreel/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { ProjectEditor } from './project-editor-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
afterEach(() => vi.unstubAllGlobals());

const project: Project = {
  id: 3,
  name: 'Summer Serum',
  file_path: 'products/3.png',
  script: 'My skin glows now.',
  language: 'english',
  accent: 'american',
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  characters: [],
  voice_source: 'generated',
  voice_over: null,
  caption_style: 'highlight',
  cta_text: null,
  music_url: null,
  quality: 'draft',
  voice_speed: 1,
  aspects: ['9:16'],
  caption_font: 'dejavu_sans',
  primary_colour: '#FFD23F',
  secondary_colour: '#111111',
  outro: false,
};

describe('ProjectEditor caption style', () => {
  it('shows the stored style and saves a new pick with PUT /projects/{id}', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url === '/api/projects/3' && init.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as Partial<Project>;
          puts.push(body);
          return jsonResponse({ ...project, ...body });
        }
        return jsonResponse({ detail: 'Not found' }, 404);
      }),
    );
    renderWithProviders(<ProjectEditor project={{ ...project, caption_style: 'boxed' }} />);
    expect(screen.getByRole('radio', { name: /Boxed lines/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /One word pop/ }));
    await waitFor(() => expect(puts).toEqual([{ caption_style: 'pop' }]));
    expect(screen.getByRole('radio', { name: /One word pop/ })).toBeChecked();
  });
});

describe('ProjectEditor voice speed', () => {
  it('follows the drag live and saves once, after the slider is released', async () => {
    const puts: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url === '/api/projects/3' && init.method === 'PUT') {
          const body = JSON.parse(String(init.body)) as Partial<Project>;
          puts.push(body);
          return jsonResponse({ ...project, ...body });
        }
        return jsonResponse({ detail: 'Not found' }, 404);
      }),
    );
    renderWithProviders(<ProjectEditor project={project} />);
    const slider = screen.getByRole('slider', { name: 'Voice speed' });
    fireEvent.pointerDown(slider);
    for (const v of ['0.95', '0.9', '0.85', '0.8', '0.85', '0.9', '0.95', '0.9']) {
      fireEvent.input(slider, { target: { value: v } });
    }
    expect(slider).toHaveAttribute('aria-valuetext', '0.90x');
    await new Promise((r) => setTimeout(r, 400));
    expect(puts).toEqual([]);
    fireEvent.pointerUp(slider);
    slider.dispatchEvent(new Event('change', { bubbles: true }));
    await waitFor(() => expect(puts).toEqual([{ voice_speed: 0.9 }]));
    await new Promise((r) => setTimeout(r, 400));
    expect(puts).toHaveLength(1);
  });
});

describe('ProjectEditor voice', () => {
  /** A fetch that answers the project's PUT and voice-over calls as the server would, and records them. */
  const server = () => {
    const calls: { method: string; url: string; body: unknown }[] = [];
    let stored: Project = project;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        if (url === '/api/projects/3/voice-over' && method === 'PUT') {
          const file = (init.body as FormData).get('voice_over') as File;
          calls.push({ method, url, body: file.name });
          stored = {
            ...stored,
            voice_source: 'own',
            voice_over: { url: 'static/users/1/projects/voice-over-a.m4a', duration_sec: 83.4 },
          };
          return jsonResponse(stored);
        }
        if (url === '/api/projects/3/voice-over' && method === 'DELETE') {
          calls.push({ method, url, body: null });
          stored = { ...stored, voice_source: 'generated', voice_over: null };
          return jsonResponse(stored);
        }
        if (url === '/api/projects/3' && method === 'PUT') {
          const body = JSON.parse(String(init.body)) as Partial<Project>;
          calls.push({ method, url, body });
          stored = { ...stored, ...body };
          return jsonResponse(stored);
        }
        return jsonResponse({ detail: 'Not found' }, 404);
      }),
    );
    return calls;
  };

  it('uploads a recording under "My own recording", plays it with its length, and removes it', async () => {
    const calls = server();
    const { rerender } = renderWithProviders(<ProjectEditor project={project} />);
    expect(screen.getByRole('radio', { name: /Generated voice/ })).toBeChecked();
    expect(screen.getByRole('slider', { name: 'Voice speed' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: /My own recording/ }));
    // No recording yet: nothing is saved, the upload is offered and the speed no longer applies.
    expect(calls).toEqual([]);
    expect(screen.queryByRole('slider', { name: 'Voice speed' })).toBeNull();
    const file = new File([new Uint8Array([0x49, 0x44, 0x33, 0, 0])], 'me.mp3', { type: 'audio/mpeg' });
    await userEvent.upload(screen.getByLabelText('Upload recording'), file);
    await waitFor(() => expect(calls).toEqual([{ method: 'PUT', url: '/api/projects/3/voice-over', body: 'me.mp3' }]));
    // The page re-renders with the stored project from the cache, as the editor route does.
    rerender(
      <ProjectEditor
        project={{
          ...project,
          voice_source: 'own',
          voice_over: { url: 'static/users/1/projects/voice-over-a.m4a', duration_sec: 83.4 },
        }}
      />,
    );
    expect(screen.getByTestId('voice-over-player')).toHaveAttribute(
      'src',
      '/api/static/users/1/projects/voice-over-a.m4a',
    );
    expect(screen.getByTestId('voice-over-duration')).toHaveTextContent('Length 1:23');
    await userEvent.click(screen.getByRole('button', { name: /Remove recording/ }));
    await waitFor(() =>
      expect(calls.at(-1)).toEqual({ method: 'DELETE', url: '/api/projects/3/voice-over', body: null }),
    );
  });

  it('refuses a file over 20MB before sending it', async () => {
    const calls = server();
    renderWithProviders(<ProjectEditor project={project} />);
    await userEvent.click(screen.getByRole('radio', { name: /My own recording/ }));
    const big = new File([new Uint8Array(8)], 'long.wav', { type: 'audio/wav' });
    Object.defineProperty(big, 'size', { value: 21 * 1024 * 1024 });
    await userEvent.upload(screen.getByLabelText('Upload recording'), big);
    const { toast } = await import('sonner');
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Recordings can be at most 20MB'));
    expect(calls).toEqual([]);
  });

  it('switches back to the generated voice and keeps the recording', async () => {
    const calls = server();
    renderWithProviders(
      <ProjectEditor
        project={{ ...project, voice_source: 'own', voice_over: { url: 'static/x.m4a', duration_sec: 4 } }}
      />,
    );
    expect(screen.getByRole('radio', { name: /My own recording/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Generated voice/ }));
    await waitFor(() =>
      expect(calls).toEqual([{ method: 'PUT', url: '/api/projects/3', body: { voice_source: 'generated' } }]),
    );
    expect(screen.getByRole('slider', { name: 'Voice speed' })).toBeInTheDocument();
  });
});

describe('ProjectEditor without an actor', () => {
  it('keeps Generate disabled and, in Realistic, says beside it that a real-looking actor is needed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ detail: 'Not found' }, 404)),
    );
    const realistic = renderWithProviders(<ProjectEditor project={{ ...project, quality: 'realistic' }} />);
    const generate = screen.getByRole('button', { name: /^Generate/ });
    expect(generate).toBeDisabled();
    expect(generate).toHaveAccessibleDescription(MESSAGES.realistic.needsActor);
    expect(screen.getByRole('note')).toHaveTextContent(MESSAGES.realistic.needsActor);
    // In Draft the actor list's own line says it; the Realistic reason is not repeated.
    realistic.unmount();
    renderWithProviders(<ProjectEditor project={project} />);
    expect(screen.getByRole('button', { name: /^Generate/ })).toBeDisabled();
    expect(screen.queryByText(MESSAGES.realistic.needsActor)).toBeNull();
    expect(screen.getByText(VALIDATION.selectOneActor)).toBeInTheDocument();
  });
});
