import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { session } from '@/lib/session';
import { makeUser, renderWithProviders } from '@/test/render';
import { RequireAuth } from './guard';

const tree = (
  <Routes>
    <Route path="/login" element={<p>login screen</p>} />
    <Route
      path="/settings"
      element={
        <RequireAuth>
          <p>secret settings</p>
        </RequireAuth>
      }
    />
  </Routes>
);

describe('RequireAuth', () => {
  it("shows a full-screen 'Loading...' while authentication is checked", () => {
    renderWithProviders(tree, { route: '/settings', auth: { status: 'loading' } });
    expect(screen.getByRole('status')).toHaveTextContent('Loading...');
    expect(screen.queryByText('secret settings')).toBeNull();
    expect(screen.getByTestId('location')).toHaveTextContent('/settings');
  });

  it('sends an unauthenticated visit to /login and remembers the origin', () => {
    renderWithProviders(tree, { route: '/settings?tab=profile', auth: { status: 'unauthenticated' } });
    expect(screen.getByText('login screen')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
    expect(session.takeReturnTo()).toBe('/settings?tab=profile');
  });

  it('renders the page when authenticated', () => {
    renderWithProviders(tree, { route: '/settings', auth: { status: 'authenticated', user: makeUser() } });
    expect(screen.getByText('secret settings')).toBeInTheDocument();
    expect(session.takeReturnTo()).toBeNull();
  });
});
