import type { Avatar, Job, User } from '@hookreel/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { AuthContextStub, type AuthContextValue } from '@/lib/auth';

export const makeUser = (over: Partial<User> = {}): User => ({
  id: 1,
  email: 'ada@example.com',
  credits: 12.5,
  notify: false,
  is_admin: false,
  created_at: '2025-01-01T00:00:00.000Z',
  ...over,
});

/** An actor with no prompt and no saved bounds, named 'Actor {id}'. */
export const makeAvatar = (id: number, over: Partial<Avatar> = {}): Avatar => ({
  id,
  url: `avatars/${id}.png`,
  prompt: null,
  name: `Actor ${id}`,
  x: null,
  y: null,
  width: null,
  height: null,
  rotation: 0,
  size: 'medium',
  merge_status: null,
  merged_url: null,
  ...over,
});

/** A project video job as the API returns it; override what the test is about. */
export const makeJob = (over: Partial<Job> = {}): Job => ({
  id: 7,
  project_id: 3,
  project_name: 'Summer Serum',
  project_deleted: false,
  kind: 'video',
  status: 'in_progress',
  progress: 40,
  video_url: null,
  poster_url: null,
  created_at: new Date().toISOString(),
  updated_at: new Date().toISOString(),
  logs: [],
  hook_pack_id: null,
  variant_index: null,
  error: null,
  quality: null,
  report_url: null,
  contact_sheet_url: null,
  actor_name: null,
  variant_label: null,
  hook_text: null,
  download_url: null,
  eta_seconds: null,
  cost: null,
  ...over,
});

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });

/** Shows the current location so tests can assert redirects. */
export function LocationProbe() {
  const l = useLocation();
  return <div data-testid="location">{`${l.pathname}${l.search}`}</div>;
}

export function renderWithProviders(
  ui: ReactElement,
  {
    route = '/',
    auth,
    queryClient = testQueryClient(),
  }: { route?: string; auth?: Partial<AuthContextValue>; queryClient?: QueryClient } = {},
) {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        {auth ? <AuthContextStub value={auth}>{children}</AuthContextStub> : children}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  return { queryClient, ...render(ui, { wrapper: Wrapper }) };
}

/** A fetch Response with a JSON body. */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
