import type { CutoutCheck } from '@hookreel/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CutoutReview } from './cutout-review';

const makeCheck = (over: Partial<CutoutCheck> = {}): CutoutCheck => ({
  verdict: 'needs-review',
  fixed: [],
  reasons: ["The product runs into the photo's edge (39% of an edge): it will show a straight cut."],
  cutout_url: 'users/1/hook-packs/9/product-ab-cutout.png',
  accepted: false,
  ...over,
});

describe('CutoutReview', () => {
  it('warns with the reasons and the cut-out on a checkerboard, and offers both ways on', async () => {
    const onReupload = vi.fn();
    const onAccept = vi.fn();
    renderWithProviders(<CutoutReview check={makeCheck()} onReupload={onReupload} onAccept={onAccept} />);
    const warning = screen.getByRole('alert');
    expect(warning).toHaveTextContent('Check the cut-out before you go on');
    expect(warning).toHaveTextContent("runs into the photo's edge");
    const preview = screen.getByRole('img', { name: 'Product cut-out preview on a checkerboard' });
    expect(preview).toHaveAttribute('src', '/api/static/users/1/hook-packs/9/product-ab-cutout.png');
    expect(preview.getAttribute('style')).toMatch(/conic-gradient/);
    await userEvent.click(screen.getByRole('button', { name: 'Upload another photo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Use this cut-out anyway' }));
    expect(onReupload).toHaveBeenCalledOnce();
    expect(onAccept).toHaveBeenCalledOnce();
  });

  it('says what cleaning fixed, and shows no warning once a cut-out is accepted', () => {
    const { rerender } = renderWithProviders(
      <CutoutReview
        check={makeCheck({ verdict: 'cleaned', reasons: [], fixed: ["removed 2 bars along the photo's edges"] })}
        onReupload={vi.fn()}
        onAccept={vi.fn()}
      />,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText("We removed 2 bars along the photo's edges.")).toBeInTheDocument();
    rerender(<CutoutReview check={makeCheck({ accepted: true })} onReupload={vi.fn()} onAccept={vi.fn()} />);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Cut-out accepted as it is')).toBeInTheDocument();
  });
});
