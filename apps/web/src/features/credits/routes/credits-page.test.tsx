import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderWithProviders } from '@/test/render';
import { CreditsPage } from './credits-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const card = (id: string) => within(screen.getByTestId(`plan-${id}`));

function renderPage() {
  return renderWithProviders(<CreditsPage />, { route: '/credits', auth: { user: makeUser({ credits: 7 }) } });
}

describe('CreditsPage', () => {
  beforeEach(() => {
    vi.mocked(toast.info).mockClear();
    vi.mocked(toast.success).mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('shows monthly prices and per-video prices, Growth is Most Popular', () => {
    renderPage();
    expect(screen.getByText('7.00')).toBeInTheDocument();
    expect(card('starter').getByTestId('price')).toHaveTextContent('$199');
    expect(card('growth').getByTestId('price')).toHaveTextContent('$499');
    expect(card('agency').getByTestId('price')).toHaveTextContent('$999');
    expect(card('starter').getByTestId('per-video')).toHaveTextContent('$13.27');
    expect(card('agency').getByTestId('per-video')).toHaveTextContent('$9.99');
    expect(card('growth').getByText('Most Popular')).toBeInTheDocument();
    expect(card('starter').queryByText('Most Popular')).toBeNull();
    expect(card('starter').getByText('Roll over up to 5 credits')).toBeInTheDocument();
    expect(card('agency').getByText('Unlimited credit rollover')).toBeInTheDocument();
  });

  it('computes yearly price floor(m×12×0.83), savings and per-month floor(yearly/12)', async () => {
    renderPage();
    expect(screen.getByText('Save 17%')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: /yearly/i }));

    // Starter 199: 1982.04 → 1982; saves 2388 − 1982 = 406; 1982 / 12 → 165
    expect(card('starter').getByTestId('price')).toHaveTextContent('$1982');
    expect(card('starter').getByTestId('savings')).toHaveTextContent('Save $406');
    expect(card('starter').getByTestId('per-month')).toHaveTextContent('$165');
    expect(card('starter').getByTestId('per-video')).toHaveTextContent('$11.01');
    // Growth 499: 4970.04 → 4970; saves 1018; 414
    expect(card('growth').getByTestId('price')).toHaveTextContent('$4970');
    expect(card('growth').getByTestId('savings')).toHaveTextContent('Save $1018');
    expect(card('growth').getByTestId('per-month')).toHaveTextContent('$414');
    // Agency 999: 9950.04 → 9950; saves 2038; 829
    expect(card('agency').getByTestId('price')).toHaveTextContent('$9950');
    expect(card('agency').getByTestId('savings')).toHaveTextContent('Save $2038');
    expect(card('agency').getByTestId('per-month')).toHaveTextContent('$829');
  });

  it('simulates a subscription: info toast, buttons disabled, success after 2 s, no server call', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    vi.useFakeTimers();
    renderPage();

    fireEvent.click(card('growth').getByRole('button', { name: 'Subscribe' }));
    expect(toast.info).toHaveBeenCalledWith('Processing subscription for 40 credits at $499/month...');
    for (const b of screen.getAllByRole('button', { name: /subscribe|processing/i })) expect(b).toBeDisabled();

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(toast.success).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(toast.success).toHaveBeenCalledWith('Successfully subscribed to Growth plan!');
    for (const b of screen.getAllByRole('button', { name: 'Subscribe' })) expect(b).toBeEnabled();
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('FAQ: item 1 open by default, one open at a time, mentions 24 hours', async () => {
    renderPage();
    const first = screen.getByRole('button', { name: /how fast/i });
    const second = screen.getByRole('button', { name: /don.t use/i });
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText(/within 24 hours/)).toBeVisible();

    await userEvent.click(second);
    expect(second).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveAttribute('aria-expanded', 'false');
  });
});
