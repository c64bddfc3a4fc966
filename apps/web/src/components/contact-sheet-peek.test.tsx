import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ContactSheetPeek } from './contact-sheet-peek';

describe('ContactSheetPeek', () => {
  it('shows the sheet while hovered and hides it when the pointer leaves', async () => {
    renderWithProviders(
      <ContactSheetPeek url="static/u1/job-3/contact-sheet.jpg" label="Summer Serum">
        <a href="/jobs/3">Open</a>
      </ContactSheetPeek>,
    );
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
    await userEvent.hover(screen.getByRole('link', { name: 'Open' }));
    const sheet = screen.getByRole('img', { name: 'Contact sheet: 6 frames of Summer Serum' });
    expect(sheet).toHaveAttribute('src', '/api/static/u1/job-3/contact-sheet.jpg');
    await userEvent.unhover(screen.getByRole('link', { name: 'Open' }));
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
  });

  it('shows the sheet while keyboard focus is inside, and hides it when focus moves on', async () => {
    renderWithProviders(
      <>
        <ContactSheetPeek url="static/s.jpg" label="Video #2" placement="popover">
          <button type="button">Video #2</button>
        </ContactSheetPeek>
        <button type="button">Next</button>
      </>,
    );
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Video #2' })).toHaveFocus();
    expect(screen.getByTestId('contact-sheet')).toHaveClass('top-full');
    await userEvent.tab();
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
  });

  it('shows nothing for a video without a sheet', async () => {
    renderWithProviders(
      <ContactSheetPeek url={null} label="Old video">
        <a href="/jobs/1">Open</a>
      </ContactSheetPeek>,
    );
    await userEvent.hover(screen.getByRole('link', { name: 'Open' }));
    expect(screen.queryByTestId('contact-sheet')).toBeNull();
  });
});
