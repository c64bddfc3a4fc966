import { PURCHASE_REFUSALS } from '@hookreel/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeUser, renderWithProviders } from '@/test/render';
import { CreditsPage } from './credits-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

const card = (id: string) => within(screen.getByTestId(`plan-${id}`));

function renderPage() {
  return renderWithProviders(<CreditsPage />, { route: '/credits', auth: { user: makeUser({ credits: 7 }) } });
}

describe('CreditsPage', () => {
  beforeEach(() => {
    vi.mocked(toast.info).mockClear();
    vi.mocked(toast.success).mockClear();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

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

  /** A server in the given billing mode; records checkout calls and holds each until released. */
  function billingServer(mode: 'demo' | 'off' | 'stripe', purchaseBlocked: string | null = null) {
    const checkouts: Array<{ body: unknown; key: string | undefined }> = [];
    let release: () => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        const url = String(input);
        if (url.endsWith('/billing/subscription'))
          return jsonResponse({ mode, subscription: null, portal: false, purchase_blocked: purchaseBlocked });
        if (url.endsWith('/billing/checkout')) {
          checkouts.push({
            body: JSON.parse(String(init.body)),
            key: (init.headers as Record<string, string>)['Idempotency-Key'],
          });
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          return jsonResponse({ url: 'http://localhost/credits?checkout=success' });
        }
        return jsonResponse(makeUser({ credits: 47 }));
      }),
    );
    return { checkouts, release: () => release() };
  }

  it('demo billing: Subscribe buys the plan once, buttons disabled while it runs, labelled as a demo', async () => {
    const server = billingServer('demo');
    renderPage();
    expect(await screen.findByTestId('billing-mode-note')).toHaveTextContent('Demo billing: no card is charged.');
    const subscribe = card('growth').getByRole('button', { name: 'Subscribe' });
    await waitFor(() => expect(subscribe).toBeEnabled());

    fireEvent.click(subscribe);
    fireEvent.click(subscribe);
    expect(toast.info).toHaveBeenCalledWith('Processing subscription for 40 credits at $499/month...');
    await waitFor(() => expect(server.checkouts).toHaveLength(1));
    for (const b of screen.getAllByRole('button', { name: /subscribe|processing|buy/i })) expect(b).toBeDisabled();
    expect(server.checkouts[0]).toMatchObject({ body: { plan: 'growth', interval: 'month' }, key: expect.any(String) });

    server.release();
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Successfully subscribed to Growth plan!', {
        description: 'Demo: no card was charged.',
      }),
    );
    expect(server.checkouts).toHaveLength(1);
    for (const b of screen.getAllByRole('button', { name: 'Subscribe' })) expect(b).toBeEnabled();
  });

  it('Stripe billing with a plan: the current plan is marked, the others change in the billing portal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (String(input).endsWith('/billing/subscription')) {
          return jsonResponse({
            mode: 'stripe',
            subscription: {
              plan: 'starter',
              interval: 'month',
              status: 'active',
              cancel_at_period_end: false,
              current_period_end: null,
            },
            portal: true,
            purchase_blocked: null,
          });
        }
        return jsonResponse(makeUser({ credits: 7 }));
      }),
    );
    renderWithProviders(<CreditsPage />, {
      route: '/credits?portal=return',
      auth: { user: makeUser({ credits: 7 }) },
    });
    const current = await card('starter').findByRole('button', { name: 'Current plan' });
    expect(current).toBeDisabled();
    expect(card('growth').getByRole('button', { name: 'Change plan' })).toBeEnabled();
    expect(card('agency').getByRole('button', { name: 'Change plan' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
    expect(toast.info).toHaveBeenCalledWith(
      'Changes made in the billing portal show here as soon as Stripe confirms them.',
    );
    // Yearly Starter is another price: a change too.
    await userEvent.click(screen.getByRole('radio', { name: /yearly/i }));
    expect(card('starter').getByRole('button', { name: 'Change plan' })).toBeEnabled();
  });

  it('demo billing sells one-time bundles', async () => {
    const server = billingServer('demo');
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Buy 20 credits · $259' });
    fireEvent.click(buy);
    await waitFor(() => expect(server.checkouts).toHaveLength(1));
    expect(server.checkouts[0]!.body).toEqual({ bundle: 'bundle-20' });
    server.release();
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('20 credits added to your balance.', expect.anything()),
    );
  });

  it('a double click buys one bundle even when the purchase is done before its second click', async () => {
    const server = billingServer('demo');
    renderPage();
    const buy = await screen.findByRole('button', { name: 'Buy 5 credits · $69' });
    await waitFor(() => expect(buy).toBeEnabled());
    fireEvent.click(buy, { detail: 1 });
    await waitFor(() => expect(server.checkouts).toHaveLength(1));
    server.release();
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(buy).toBeEnabled());
    // The double click's second click arrives after the answer: it buys nothing.
    fireEvent.click(buy, { detail: 2 });
    expect(server.checkouts).toHaveLength(1);
    // A later single click is a new purchase.
    fireEvent.click(buy, { detail: 1 });
    await waitFor(() => expect(server.checkouts).toHaveLength(2));
    server.release();
    await waitFor(() => expect(toast.success).toHaveBeenCalledTimes(2));
  });

  it('demo money is announced in an amber banner', async () => {
    billingServer('demo');
    renderPage();
    const banner = await screen.findByTestId('demo-money-banner');
    expect(banner).toHaveTextContent('Demo money is on');
    expect(banner).toHaveClass('bg-amber-50');
  });

  it('an account that may not buy sees why, beside disabled buttons (not just a toast)', async () => {
    const server = billingServer('demo', PURCHASE_REFUSALS.unverified);
    renderPage();
    const reason = await screen.findByTestId('purchase-blocked');
    expect(reason).toHaveTextContent('Verify your e-mail address before buying');
    const buttons = screen.getAllByRole('button', { name: /subscribe|^buy /i });
    expect(buttons.length).toBe(6);
    for (const b of buttons) {
      expect(b).toBeDisabled();
      expect(b).toHaveAttribute('aria-describedby', reason.id);
    }
    fireEvent.click(buttons[0]!);
    expect(server.checkouts).toHaveLength(0);
  });

  it('BILLING=off shows no purchase buttons, and the credit history is one click away', async () => {
    billingServer('off');
    renderPage();
    expect(await screen.findByTestId('billing-mode-note')).toHaveTextContent('Purchases are turned off');
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Buy / })).toBeNull();
    expect(screen.getByRole('link', { name: /credit history/i })).toHaveAttribute('href', '/credits/history');
  });

  it('FAQ: item 1 open by default, one open at a time, quotes the render time measured here', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        String(input).endsWith('/stats')
          ? jsonResponse({ seconds_per_video: 14, videos_measured: 20, actors: 30, languages: 6 })
          : jsonResponse(makeUser({ credits: 47 })),
      ),
    );
    renderPage();
    const first = screen.getByRole('button', { name: /how fast/i });
    const second = screen.getByRole('button', { name: /don.t use/i });
    expect(first).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByText(/about 14 s each to render here \(median of the last 20\)/)).toBeVisible();
    expect(screen.queryByText(/24 hours/)).toBeNull();

    await userEvent.click(second);
    expect(second).toHaveAttribute('aria-expanded', 'true');
    expect(first).toHaveAttribute('aria-expanded', 'false');
  });
});
