import { DEFAULT_BRAND_KIT, type BrandKit } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { BrandKitCard } from './brand-kit-card';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

let fetchMock: ReturnType<typeof vi.fn>;
const withLogo: BrandKit = {
  ...DEFAULT_BRAND_KIT,
  logo_url: 'static/users/1/brand/a.png',
  logo_width: 300,
  logo_height: 120,
};

function serve(kit: BrandKit) {
  fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
    if (url === '/api/brand-kit' && init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as Partial<BrandKit>;
      return jsonResponse({ ...kit, ...body });
    }
    return jsonResponse(kit);
  });
}
const puts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'PUT');

beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('BrandKitCard', () => {
  it('keeps the outro off until there is a logo', async () => {
    serve(DEFAULT_BRAND_KIT);
    renderWithProviders(<BrandKitCard />);
    const outro = await screen.findByRole('switch', { name: 'Outro card with the logo' });
    expect(outro).toBeDisabled();
    expect(screen.getByText('Upload a logo before turning on the outro card')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save brand kit' })).toBeDisabled();
  });

  it('saves colours, font, caption style, CTA and outro, and previews them', async () => {
    serve(withLogo);
    renderWithProviders(<BrandKitCard />);
    const primary = await screen.findByLabelText('Brand colour');
    await userEvent.clear(primary);
    await userEvent.type(primary, '#e63946');
    // A half-typed colour cannot be saved.
    const secondary = screen.getByLabelText('Second colour');
    await userEvent.clear(secondary);
    await userEvent.type(secondary, '#1D35');
    expect(screen.getByText('Write the colour as #RRGGBB')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save brand kit' })).toBeDisabled();
    await userEvent.type(secondary, '57');

    await userEvent.click(screen.getByRole('radio', { name: /Open Sans/ }));
    await userEvent.click(screen.getByText('Lower third'));
    await userEvent.type(screen.getByLabelText('Default call to action'), 'Shop now');
    await userEvent.click(screen.getByRole('switch', { name: 'Outro card with the logo' }));
    // The AI label: real photos by default, here every video.
    expect(screen.getByRole('radio', { name: /On videos of real people's photos/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /On every video/ }));
    expect(screen.getByTestId('preview-cta')).toHaveTextContent('Shop now');
    expect(screen.getByTestId('preview-cta')).toHaveStyle({ backgroundColor: 'rgb(230, 57, 70)' });
    expect(screen.getByTestId('preview-outro')).toHaveStyle({ backgroundColor: 'rgb(29, 53, 87)' });

    await userEvent.click(screen.getByRole('button', { name: 'Save brand kit' }));
    await waitFor(() => expect(puts()).toHaveLength(1));
    expect(JSON.parse(String((puts()[0]![1] as RequestInit).body))).toEqual({
      primary_colour: '#E63946',
      secondary_colour: '#1D3557',
      caption_font: 'open_sans',
      caption_style: 'lower_third',
      cta_text: 'Shop now',
      outro: true,
      ai_label: 'all',
    });
  });
});
