import type { ModeAvailability, VideoQuality } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { RenderQualityPicker } from './render-quality-picker';

function Harness({ availability }: { availability: ModeAvailability }) {
  const [quality, setQuality] = useState<VideoQuality>('draft');
  return (
    <>
      <RenderQualityPicker
        value={quality}
        onChange={setQuality}
        prices={{ draft: 1, realistic: 1.6 }}
        availability={availability}
      />
      <output data-testid="quality">{quality}</output>
    </>
  );
}

describe('RenderQualityPicker', () => {
  it('shows the price of each quality and switches to Realistic when the providers are configured', async () => {
    renderWithProviders(<Harness availability={{ available: true, missing: [] }} />);
    expect(screen.getByTestId('price-draft')).toHaveTextContent('1.00 credit per video');
    expect(screen.getByTestId('price-realistic')).toHaveTextContent('1.60 credits per video');
    expect(screen.getByRole('radio', { name: /Draft/ })).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: /Realistic/ }));
    expect(screen.getByTestId('quality')).toHaveTextContent('realistic');
    expect(screen.queryByTestId('realistic-unavailable')).toBeNull();
  });

  it('disables Realistic and says what the operator has to configure when a provider is missing', async () => {
    renderWithProviders(<Harness availability={{ available: false, missing: ['Talking actor: set FAL_KEY'] }} />);
    const realistic = screen.getByRole('radio', { name: /Realistic/ });
    expect(realistic).toBeDisabled();
    expect(realistic).toHaveAccessibleDescription(
      /Realistic is not available on this server.*Talking actor: set FAL_KEY/,
    );
    await userEvent.click(realistic);
    expect(screen.getByTestId('quality')).toHaveTextContent('draft');
  });
});
