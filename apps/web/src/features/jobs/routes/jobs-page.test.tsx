import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeJob, makeUser, renderWithProviders } from '@/test/render';
import { JobsPage } from './jobs-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

afterEach(() => vi.unstubAllGlobals());

describe('JobsPage delete', () => {
  it('loads the delete dialog only when asked, and deletes the job it names', async () => {
    const deletes: string[] = [];
    let listed = [makeJob({ id: 7, status: 'completed', progress: 100, project_name: 'Summer Serum' })];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        if (url === '/api/jobs/7' && init.method === 'DELETE') {
          deletes.push(url);
          listed = [];
          return new Response(null, { status: 204 });
        }
        if (url.startsWith('/api/jobs')) return jsonResponse(listed);
        return jsonResponse({ detail: 'Not found' }, 404);
      }),
    );
    const auth = {
      status: 'authenticated' as const,
      user: makeUser(),
      isAdmin: false,
      refreshUser: async () => null,
      logout: async () => {},
    };
    renderWithProviders(<JobsPage />, { route: '/jobs', auth });
    const actions = await screen.findByRole('button', { name: 'Actions for job 7' });
    // Nothing asked yet: no dialog is on the page.
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await userEvent.click(actions);
    await userEvent.click(await screen.findByRole('menuitem', { name: /Delete Job/ }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Summer Serum');
    await userEvent.click(screen.getByRole('button', { name: /^Delete/ }));
    await waitFor(() => expect(deletes).toEqual(['/api/jobs/7']));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});
