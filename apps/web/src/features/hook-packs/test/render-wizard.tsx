import type { HookPack } from '@hookreel/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { AuthContextStub, type AuthContextValue } from '@/lib/auth';
import { LocationProbe, makeUser, testQueryClient } from '@/test/render';
import { useHookPack } from '../api/get-hook-pack';
import { emptyWizardData, type StepProps } from '../lib/wizard-data';

/** Renders `element` at `path` from an entry (with `?query` if any) and navigation state (e.g. {fromIndex: true}). */
export function renderAt(
  element: ReactElement,
  {
    path,
    entry,
    state,
    auth,
  }: { path: string | string[]; entry: string; state?: unknown; auth?: Partial<AuthContextValue> },
) {
  const queryClient = testQueryClient();
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter
        initialEntries={[
          { pathname: entry.split('?')[0], search: entry.includes('?') ? `?${entry.split('?')[1]}` : '', state },
        ]}
      >
        <AuthContextStub value={{ user: makeUser(), ...auth }}>
          <Routes>
            {(Array.isArray(path) ? path : [path]).map((p) => (
              <Route key={p} path={p} element={element} />
            ))}
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </AuthContextStub>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { queryClient, ...utils };
}

/** What the wizard page gives a step, for a step rendered on its own: empty local data, no-op navigation. */
export const stepProps = (pack: HookPack | null): StepProps => ({
  pack,
  data: emptyWizardData(),
  setData: () => {},
  advance: async () => true,
  back: () => {},
  advancing: false,
});

/** Renders `element` at /hook-packs/new/5, where a step is shown on its own. */
export const renderAtPack = (element: ReactElement) =>
  renderAt(element, { path: '/hook-packs/new/:id', entry: '/hook-packs/new/5' });

/** Renders a step that needs only the step props, fed pack 5 from the API as the wizard page feeds it. */
export function renderStep(Step: ComponentType<StepProps>) {
  function Harness() {
    const pack = useHookPack(5);
    return <Step {...stepProps(pack.data ?? null)} />;
  }
  return renderAtPack(<Harness />);
}
