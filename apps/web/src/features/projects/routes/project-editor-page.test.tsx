import type { Project } from '@hookreel/contracts';
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
