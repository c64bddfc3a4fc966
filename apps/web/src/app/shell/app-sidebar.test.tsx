import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SidebarProvider } from '@/components/ui/sidebar';
import type { AuthContextValue } from '@/lib/auth';
import { makeUser, renderWithProviders } from '@/test/render';
import { AppSidebar, isLinkActive } from './app-sidebar';

function renderSidebar(route: string, auth: Partial<AuthContextValue>) {
  return renderWithProviders(
    <SidebarProvider>
      <AppSidebar />
    </SidebarProvider>,
    { route, auth: { status: 'authenticated', ...auth } },
  );
}

describe('isLinkActive', () => {
  it('is active when the path starts with the link path', () => {
    expect(isLinkActive('/projects', '/projects')).toBe(true);
    expect(isLinkActive('/projects/12', '/projects')).toBe(true);
    expect(isLinkActive('/projects/new', '/projects')).toBe(true);
    expect(isLinkActive('/jobs', '/generated-videos')).toBe(false);
    expect(isLinkActive('/settings', '/projects')).toBe(false);
  });
});

describe('AppSidebar', () => {
  it('renders the documented entries and marks the active link', () => {
    renderSidebar('/projects/12', { user: makeUser() });
    const nav = screen.getByRole('navigation', { name: 'Primary' });
    expect(screen.getByText('Hookreel')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Video' })).toHaveAttribute('href', '/new-video');
    expect(within(nav).getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Generated videos' })).toHaveAttribute('href', '/generated-videos');
    expect(within(nav).getByRole('link', { name: 'Generated videos' })).not.toHaveAttribute('aria-current');
    expect(within(nav).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByText('Resources')).toBeInTheDocument();
    expect(screen.getByText('Account')).toBeInTheDocument();
    expect(screen.getByTestId('credits-balance')).toHaveTextContent('12.50');
    expect(screen.getByRole('button', { name: /user menu/i })).toHaveTextContent('ada@example.com');
  });

  it('shows Avatars only to admins', () => {
    const { unmount } = renderSidebar('/projects', { user: makeUser({ is_admin: false }) });
    expect(screen.queryByRole('link', { name: 'Avatars' })).toBeNull();
    unmount();

    renderSidebar('/avatars', { user: makeUser({ is_admin: true }) });
    expect(screen.getByRole('link', { name: 'Avatars' })).toHaveAttribute('aria-current', 'page');
  });

  it("shows 0.00 credits and 'User' without data, and refreshes the user on demand", async () => {
    const refreshUser = vi.fn(async () => null);
    renderSidebar('/settings', { user: makeUser({ email: '', credits: 0 }), refreshUser });
    expect(screen.getByTestId('credits-balance')).toHaveTextContent('0.00');
    expect(screen.getByRole('button', { name: /user menu/i })).toHaveTextContent('User');

    await userEvent.click(screen.getByRole('button', { name: 'Refresh credits' }));
    expect(refreshUser).toHaveBeenCalledTimes(1);
  });

  it('user menu offers Settings and Logout', async () => {
    const logout = vi.fn(async () => {});
    renderSidebar('/projects', { user: makeUser(), logout });
    await userEvent.click(screen.getByRole('button', { name: /user menu/i }));
    expect(await screen.findByRole('menuitem', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Logout' }));
    expect(logout).toHaveBeenCalledTimes(1);
  });

  it('Ctrl/Cmd+B toggles the sidebar state and stores it in the sidebar_state cookie for 7 days', async () => {
    const setCookie = vi.spyOn(document, 'cookie', 'set');
    renderSidebar('/projects', { user: makeUser() });
    const sidebar = document.querySelector('[data-slot="sidebar"]');
    expect(sidebar).toHaveAttribute('data-state', 'expanded');

    await userEvent.keyboard('{Control>}b{/Control}');
    expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    expect(setCookie).toHaveBeenLastCalledWith('sidebar_state=false; path=/; max-age=604800; SameSite=Lax');

    await userEvent.keyboard('{Meta>}b{/Meta}');
    expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });
});
