import { CAPTION_STYLE_LABELS, CAPTION_STYLES, DEFAULT_CAPTION_STYLE, type CaptionStyle } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CAPTION_STYLE_HINTS, CaptionStylePicker, captionPreviewUrl } from './caption-style-picker';

function Harness({ disabled }: { disabled?: boolean }) {
  const [style, setStyle] = useState<CaptionStyle>(DEFAULT_CAPTION_STYLE);
  return (
    <>
      <CaptionStylePicker value={style} onChange={setStyle} disabled={disabled} />
      <output data-testid="style">{style}</output>
    </>
  );
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const b = readFileSync(file);
  expect(b.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('CaptionStylePicker', () => {
  it('shows every preset as a picture, word highlight first and chosen by default', () => {
    renderWithProviders(<Harness />);
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => (r as HTMLInputElement).value)).toEqual([...CAPTION_STYLES]);
    expect(radios.length).toBeGreaterThanOrEqual(4);
    expect(screen.getByRole('radio', { name: /Word highlight/ })).toBeChecked();
    const pictures = screen.getByTestId('caption-style-picker').querySelectorAll('img');
    expect([...pictures].map((img) => img.getAttribute('src'))).toEqual(CAPTION_STYLES.map(captionPreviewUrl));
  });

  it('describes each style by what it draws, naming colours by their role in the brand look', () => {
    renderWithProviders(<Harness />);
    for (const style of CAPTION_STYLES) {
      const radio = screen.getByRole('radio', { name: new RegExp(CAPTION_STYLE_LABELS[style]) });
      expect(radio.closest('label')).toHaveTextContent(CAPTION_STYLE_HINTS[style]);
    }
    // A brand kit can make the highlight any colour and the boxes light, so no hint may promise yellow or dark.
    for (const hint of Object.values(CAPTION_STYLE_HINTS)) expect(hint).not.toMatch(/yellow|dark|black/i);
    expect(CAPTION_STYLE_HINTS.highlight).toMatch(/brand colour/);
    expect(CAPTION_STYLE_HINTS.boxed).toMatch(/second colour/);
  });

  it('picks a style by click and by arrow keys', async () => {
    renderWithProviders(<Harness />);
    await userEvent.click(screen.getByRole('radio', { name: /Boxed lines/ }));
    expect(screen.getByTestId('style')).toHaveTextContent('boxed');
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByTestId('style')).toHaveTextContent('lower_third');
    expect(screen.getByRole('radio', { name: /Lower third/ })).toHaveFocus();
  });

  it('cannot change while disabled', async () => {
    renderWithProviders(<Harness disabled />);
    await userEvent.click(screen.getByRole('radio', { name: /One word pop/ }));
    expect(screen.getByTestId('style')).toHaveTextContent('highlight');
  });

  it('has a rendered preview picture in the public folder for every style', () => {
    for (const style of CAPTION_STYLES) {
      const file = path.resolve(import.meta.dirname, `../../public/caption-styles/${style}.png`);
      expect(pngSize(file)).toEqual([270, 240]);
    }
  });
});
