import { VALIDATION } from '@hookreel/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { NewProjectPage } from './new-project-page';
import { spyOnToasts } from '../../../test/toasts';

spyOnToasts();

describe('NewProjectPage', () => {
  it('shows the contracts messages for too short and too long names', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<NewProjectPage />, { route: '/projects/new' });
    const name = screen.getByLabelText('Name');
    await userEvent.type(name, 'ab');
    await userEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect(await screen.findByText(VALIDATION.nameMin)).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.click(name);
    await userEvent.paste('x'.repeat(101));
    await userEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    expect(await screen.findByText(VALIDATION.nameMax)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('creates the project with the file and goes to its editor', async () => {
    const fetchMock = vi.fn(async () => jsonResponse({ id: 42 }, 201));
    vi.stubGlobal('fetch', fetchMock);
    renderWithProviders(<NewProjectPage />, { route: '/projects/new' });
    await userEvent.type(screen.getByLabelText('Name'), 'Launch');
    const file = new File(['x'.repeat(2048)], 'brief.png', { type: 'image/png' });
    await userEvent.upload(screen.getByLabelText('Reference File (optional)'), file);
    expect(screen.getByTestId('selected-file')).toHaveTextContent('brief.png');
    expect(screen.getByTestId('selected-file')).toHaveTextContent('2.00 KB');
    await userEvent.click(screen.getByRole('button', { name: 'Create Project' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/projects/42'));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/projects/');
    const body = init.body as FormData;
    expect(body.get('name')).toBe('Launch');
    expect((body.get('file') as File).name).toBe('brief.png');
    vi.unstubAllGlobals();
  });
});
