import type { Voice } from '@hookreel/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { accentName, VoicePicker, voicesFor } from './voice-picker';

const voice = (id: string, over: Partial<Voice> = {}): Voice => ({
  id,
  engine: 'flite',
  label: `${id.split(':')[1] ?? id} (US English, flite)`,
  language: 'english',
  accent: 'american',
  gender: 'male',
  licence: 'BSD-style',
  sample_url: `/api/voices/${encodeURIComponent(id)}/sample`,
  default: false,
  ...over,
});

const VOICES = [
  voice('flite:rms', { label: 'Ryan (US English, flite)', default: true }),
  voice('flite:awb', { label: 'Alan (Scottish English, flite)', accent: 'british', default: true }),
  voice('flite:slt', { label: 'Sally (US English, flite)', gender: 'female', default: true }),
  voice('espeak:es+f3', { label: 'Spanish female (es, eSpeak-NG)', language: 'spanish', engine: 'espeak' }),
];

function setup(props: { language?: 'english' | 'spanish'; accent?: 'american' | 'british'; value?: string | null }) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse({ voices: VOICES })),
  );
  const onChange = vi.fn();
  renderWithProviders(
    <VoicePicker
      language={props.language ?? 'english'}
      accent={props.accent ?? 'american'}
      value={props.value ?? null}
      onChange={onChange}
    />,
  );
  return { onChange };
}

afterEach(() => vi.unstubAllGlobals());

describe('voicesFor', () => {
  it('keeps one language, the chosen accent first, each group in the server’s order', () => {
    expect(voicesFor(VOICES, 'english', 'british').map((v) => v.id)).toEqual(['flite:awb', 'flite:rms', 'flite:slt']);
    expect(voicesFor(VOICES, 'spanish', 'american').map((v) => v.id)).toEqual(['espeak:es+f3']);
  });
});

describe('accentName', () => {
  it('names accents as listeners of each language do', () => {
    expect(accentName('english', 'british')).toBe('British');
    expect(accentName('spanish', 'american')).toBe('Latin American');
    expect(accentName('portuguese', 'american')).toBe('Brazilian');
    expect(accentName('spanish', 'neutral')).toBe('European');
    expect(accentName('german', 'neutral')).toBe('Standard');
  });
});

describe('VoicePicker', () => {
  it('offers Automatic and the language’s voices, marks the recommended ones, and picks one', async () => {
    const { onChange } = setup({});
    expect(await screen.findByRole('radio', { name: /Ryan/ })).toBeInTheDocument();
    const names = screen.getAllByRole('radio').map((r) => r.closest('label')?.textContent ?? '');
    expect(names).toHaveLength(4);
    expect(names[0]).toMatch(/^Automatic/);
    expect(names[1]).toMatch(/Ryan.*Recommended.*Male · American · flite/);
    // Alan is British: recommended for a British project, not this one.
    expect(names[3]).not.toMatch(/Recommended/);
    expect(screen.getByRole('radio', { name: /Automatic/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Sally/ }));
    expect(onChange).toHaveBeenCalledWith('flite:slt');
  });

  it('shows Automatic as chosen when the stored voice speaks another language', async () => {
    setup({ language: 'spanish', value: 'flite:rms' });
    expect(await screen.findByRole('radio', { name: /Spanish female/ })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: /Automatic/ })).toBeChecked();
  });

  it('plays a voice’s sample from the API and stops it on a second press', async () => {
    const played: string[] = [];
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      played.push(this.src);
      return Promise.resolve();
    });
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    setup({});
    const ryan = (await screen.findByRole('radio', { name: /Ryan/ })).closest('[data-testid="voice-option"]');
    const button = within(ryan as HTMLElement).getByRole('button', {
      name: 'Play a sample of Ryan (US English, flite)',
    });
    await userEvent.click(button);
    expect(played).toEqual([expect.stringMatching(/\/api\/voices\/flite%3Arms\/sample$/)]);
    expect(button).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(ryan as HTMLElement).getByRole('button', { name: 'Stop the sample of Ryan' }));
    expect(pause).toHaveBeenCalled();
    expect(button).toHaveAttribute('aria-pressed', 'false');
  });
});
