import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { makeJob } from '../test/fixtures';
import { PackJobCard } from './pack-job-card';

describe('PackJobCard', () => {
  it("floats the video's contact sheet under the card on hover and on keyboard focus", async () => {
    const job = makeJob({
      status: 'completed',
      progress: 100,
      variant_index: 3,
      contact_sheet_url: 'static/u1/job-100/contact-sheet.jpg',
    });
    renderWithProviders(<PackJobCard job={job} index={2} onOpen={vi.fn()} />);
    const card = screen.getByRole('button', { name: /Video #3/ });
    await userEvent.hover(card);
    expect(screen.getByRole('img', { name: 'Contact sheet: 6 frames of Video #3' })).toHaveAttribute(
      'src',
      '/api/static/u1/job-100/contact-sheet.jpg',
    );
    await userEvent.unhover(card);
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
    await userEvent.tab();
    expect(card).toHaveFocus();
    expect(screen.getByTestId('contact-sheet')).toBeInTheDocument();
  });
});
