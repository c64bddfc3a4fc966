import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeJob, renderWithProviders } from '@/test/render';
import { ReportProblem } from './report-problem';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

let fetchMock: ReturnType<typeof vi.fn>;
const posts = () => fetchMock.mock.calls.filter(([, init]) => (init as RequestInit | undefined)?.method === 'POST');

beforeEach(() => {
  let refunds: unknown[] = [];
  fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
    if (init?.method === 'POST') {
      await new Promise((r) => setTimeout(r, 50));
      const made = {
        id: 1,
        job_id: 7,
        user_email: 'a@example.com',
        project_name: 'Summer Serum',
        amount: 1,
        reason: 'The product is upside down',
        state: 'pending',
        decision_note: null,
        created_at: '2026-12-02T00:00:00.000Z',
        decided_at: null,
      };
      refunds = [made];
      return jsonResponse(made, 201);
    }
    return jsonResponse(refunds);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('ReportProblem', () => {
  it('asks for one refund for a double click on "Ask for a refund"', async () => {
    renderWithProviders(<ReportProblem job={makeJob({ status: 'completed' })} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Report a problem' }));
    await userEvent.type(screen.getByLabelText('What is wrong?'), 'The product is upside down');
    const ask = screen.getByRole('button', { name: 'Ask for a refund' });
    fireEvent.click(ask, { detail: 1 });
    fireEvent.click(ask, { detail: 2 });
    expect(await screen.findByTestId('refund-state')).toHaveTextContent('Refund requested');
    expect(posts()).toHaveLength(1);
  });
});
