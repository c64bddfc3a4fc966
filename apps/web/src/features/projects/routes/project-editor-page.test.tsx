import { MESSAGES, TIMINGS, VALIDATION, type Project } from '@hookreel/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from 'sonner';
import {
  holdPriceList,
  jsonResponse,
  makeCharacter,
  makePriceList,
  makeProject,
  renderWithProviders,
} from '@/test/render';
import { ProjectEditor } from './project-editor-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();
afterEach(() => vi.unstubAllGlobals());

const project = makeProject();

/** Answers every PUT of the project with it and records the bodies; `fail` makes them answer 500. Else 404. */
function stubProjectPuts(fail = false, calls: string[] = []) {
  const puts: Partial<Project>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push(`${init.method ?? 'GET'} ${url} ${typeof init.body === 'string' ? init.body : ''}`);
      if (url === '/api/projects/3' && init.method === 'PUT') {
        const body = JSON.parse(String(init.body)) as Partial<Project>;
        puts.push(body);
        return fail ? jsonResponse({ detail: 'Database down' }, 500) : jsonResponse({ ...project, ...body });
      }
      return jsonResponse({ detail: 'Not found' }, 404);
    }),
  );
  return puts;
}

describe('ProjectEditor caption style', () => {
  it('shows the stored style and saves a new pick with PUT /projects/{id}', async () => {
    const puts = stubProjectPuts();
    renderWithProviders(<ProjectEditor project={{ ...project, caption_style: 'boxed' }} />);
    expect(screen.getByRole('radio', { name: /Boxed lines/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /One word pop/ }));
    await waitFor(() => expect(puts).toEqual([{ caption_style: 'pop' }]));
    expect(screen.getByRole('radio', { name: /One word pop/ })).toBeChecked();
  });
});

describe('ProjectEditor quality prices', () => {
  it("prices Realistic from the server's per-second figure, and shows no Realistic price before it is known", async () => {
    const releasePrices = holdPriceList({
      '/api/capabilities': {
        stages: {},
        realistic: { videos: { available: true, missing: [] }, hook_packs: { available: true, missing: [] } },
      },
    });
    renderWithProviders(<ProjectEditor project={{ ...project, quality: 'realistic' }} />);
    const generate = screen.getByRole('button', { name: /^Generate/ });
    // Realistic picked, price list not loaded yet: no figure is made up.
    expect(generate).toHaveAccessibleName('Generate');
    expect(screen.getByTestId('price-realistic')).toHaveTextContent('…');
    // 18 characters at 14 a second: billed as the 3-second minimum, 1 + 3 × 0.1.
    releasePrices(makePriceList({ prices: { characterGeneration: 0.5 } }));
    await waitFor(() => expect(screen.getByTestId('price-realistic')).toHaveTextContent('1.30 credits per video'));
    expect(screen.getByTestId('price-draft')).toHaveTextContent('1.00 credit per video');
    expect(screen.getByRole('button', { name: /^Generate/ })).toHaveAccessibleName('Generate · 1.30 credits');
  });
});

describe('ProjectEditor voice speed', () => {
  it('follows the drag live and saves once, after the slider is released', async () => {
    const puts = stubProjectPuts();
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

describe('ProjectEditor brand look', () => {
  const character = makeCharacter(8, {
    prompt: 'young woman in her 20s',
    url: 'static/characters/8.png',
    display_url: 'static/characters/8.png',
    name: 'Ava',
    catalogue: false,
  });
  /** What a colour picker sends while its thumb is dragged: one input event per step. */
  const drag = (picker: HTMLElement, steps: string[]) => {
    for (const v of steps) fireEvent.input(picker, { target: { value: v } });
  };

  it('shows a dragged colour at once and saves it once, after the drag has been still a moment', async () => {
    const puts = stubProjectPuts();
    renderWithProviders(<ProjectEditor project={project} />);
    const picker = screen.getByLabelText('Brand colour');
    drag(picker, ['#ff0000', '#f01010', '#e02020', '#d03030', '#c04040', '#b05050', '#e63946']);
    expect(picker).toHaveValue('#e63946');
    expect(puts).toEqual([]);
    await waitFor(() => expect(puts).toEqual([{ primary_colour: '#E63946' }]));
    await new Promise((r) => setTimeout(r, TIMINGS.brandLookSaveMs + 100));
    expect(puts).toHaveLength(1);
  });

  it('saves a colour still inside the pause before the video is queued', async () => {
    const calls: string[] = [];
    stubProjectPuts(false, calls);
    renderWithProviders(<ProjectEditor project={{ ...project, characters: [character] }} />);
    drag(screen.getByLabelText('Second colour'), ['#223344', '#1d3557']);
    await userEvent.click(screen.getByRole('button', { name: /^Generate/ }));
    // The colour goes out with the render's saves, before the job is asked for, not 0.4 s later.
    await waitFor(() => expect(calls.some((c) => c.startsWith('POST'))).toBe(true));
    const saved = calls.findIndex((c) => c.includes('"secondary_colour":"#1D3557"'));
    expect(saved).toBeGreaterThanOrEqual(0);
    expect(saved).toBeLessThan(calls.findIndex((c) => c.startsWith('POST')));
  });

  it('puts the stored colour back when the save fails', async () => {
    const puts = stubProjectPuts(true);
    renderWithProviders(<ProjectEditor project={project} />);
    const picker = screen.getByLabelText('Brand colour');
    drag(picker, ['#00ff00', '#00aa00']);
    await waitFor(() => expect(puts).toEqual([{ primary_colour: '#00AA00' }]));
    await waitFor(() => expect(picker).toHaveValue('#ffd23f'));
    expect(toast.error).toHaveBeenCalled();
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

describe('ProjectEditor Realistic with a catalogue actor', () => {
  const stage = (remote: boolean) => ({ remote, provider: remote ? 'OpenAI-compatible' : null });
  const capabilities = (images: boolean) => ({
    stages: {
      voice: { ...stage(true), word_timings: 'exact' },
      characters: stage(images),
      product_in_hand: stage(true),
      talking_actor: stage(true),
      product_analysis: stage(false),
      hook_lines: stage(false),
    },
    realistic: { videos: { available: true, missing: [] }, hook_packs: { available: images, missing: [] } },
    voice_speed: { min: 0.8, max: 1.2 },
  });
  const drawn = makeCharacter(4);
  const serve = (images: boolean) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/capabilities' ? jsonResponse(capabilities(images)) : jsonResponse({ detail: 'Not found' }, 404),
      ),
    );

  it('keeps Generate disabled and says why when the images provider is off; an uploaded photo actor works', async () => {
    serve(false);
    const view = renderWithProviders(
      <ProjectEditor project={{ ...project, quality: 'realistic', characters: [drawn] }} />,
    );
    const generate = screen.getByRole('button', { name: /^Generate/ });
    await waitFor(() => expect(generate).toBeDisabled());
    expect(generate).toHaveAccessibleDescription(MESSAGES.realistic.catalogueActorNeedsImages);
    expect(screen.getByRole('note')).toHaveTextContent(MESSAGES.realistic.catalogueActorNeedsImages);
    view.unmount();
    // The same project with an uploaded photo actor can be generated.
    renderWithProviders(
      <ProjectEditor
        project={{ ...project, quality: 'realistic', characters: [{ ...drawn, name: 'My photo', catalogue: false }] }}
      />,
    );
    await screen.findByRole('radio', { name: /Realistic/ });
    expect(screen.getByRole('button', { name: /^Generate/ })).toBeEnabled();
    expect(screen.queryByText(MESSAGES.realistic.catalogueActorNeedsImages)).toBeNull();
  });

  it('lets a catalogue actor through when the images provider is on, and in Draft', async () => {
    serve(true);
    const view = renderWithProviders(
      <ProjectEditor project={{ ...project, quality: 'realistic', characters: [drawn] }} />,
    );
    await waitFor(() => expect(screen.getByRole('button', { name: /^Generate/ })).toBeEnabled());
    view.unmount();
    serve(false);
    renderWithProviders(<ProjectEditor project={{ ...project, characters: [drawn] }} />);
    expect(screen.getByRole('button', { name: /^Generate/ })).toBeEnabled();
    expect(screen.queryByText(MESSAGES.realistic.catalogueActorNeedsImages)).toBeNull();
  });
});
