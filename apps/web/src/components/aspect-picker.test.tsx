import { type Aspect } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderControlled, renderWithProviders } from '@/test/render';
import { AspectIcon, AspectList, AspectPicker } from './aspect-picker';

describe('AspectPicker', () => {
  it('keeps 9:16 ticked and locked, and adds or removes 4:5 and 1:1 in a fixed order', async () => {
    renderControlled<Aspect>(AspectPicker, ['9:16'], 'aspects');
    const master = screen.getByTestId('aspect-9:16');
    expect(master).toBeChecked();
    expect(master).toBeDisabled();
    await userEvent.click(screen.getByTestId('aspect-1:1'));
    await userEvent.click(screen.getByTestId('aspect-4:5'));
    expect(screen.getByTestId('aspects')).toHaveTextContent('9:16,4:5,1:1');
    await userEvent.click(screen.getByTestId('aspect-1:1'));
    expect(screen.getByTestId('aspects')).toHaveTextContent('9:16,4:5');
    expect(screen.getByText('864x1080')).toBeInTheDocument();
    expect(screen.getByText(/no extra credits/)).toBeInTheDocument();
  });

  it('draws each frame icon to its shape', () => {
    renderWithProviders(
      <>
        <AspectIcon aspect="9:16" />
        <AspectIcon aspect="4:5" />
        <AspectIcon aspect="1:1" />
      </>,
    );
    const size = (a: Aspect) => {
      const rect = screen.getByTestId(`aspect-icon-${a}`).querySelector('rect')!;
      return [Number(rect.getAttribute('width')), Number(rect.getAttribute('height'))];
    };
    expect(size('9:16')).toEqual([11, 20]);
    expect(size('4:5')).toEqual([16, 20]);
    expect(size('1:1')).toEqual([20, 20]);
  });

  it('lists the shapes a video was exported in', () => {
    renderWithProviders(<AspectList aspects={['9:16', '1:1']} />);
    expect(screen.getByTestId('job-aspects')).toHaveAccessibleName('Frame shapes: 9:16, 1:1');
  });
});
