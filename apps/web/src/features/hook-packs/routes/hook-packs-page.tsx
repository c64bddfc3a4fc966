import { MESSAGES, UI } from '@hookreel/contracts';
import { PackageOpenIcon, PlusIcon } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { useHookPacks } from '../api/get-hook-packs';
import { HookPackCard, HookPackCardPlaceholder } from '../components/hook-pack-card';
import { LIST_TEXT, sortNewestFirst } from '../lib/list';

/** /hook-packs: the user's hook packs, newest first. */
export function HookPacksPage() {
  const { data, isPending, isError, error } = useHookPacks();
  const packs = useMemo(() => (data ? sortNewestFirst(data) : []), [data]);

  useEffect(() => {
    if (isError) console.error(MESSAGES.hookPacks.fetchFailed, error);
  }, [isError, error]);

  return (
    <Page>
      <PageHeader
        title={LIST_TEXT.title}
        description={LIST_TEXT.description}
        actions={
          <ButtonLink to="/hook-packs/new" variant="brand">
            <PlusIcon aria-hidden="true" />
            {LIST_TEXT.newButton}
          </ButtonLink>
        }
      />
      {isError ? <ErrorBanner className="mb-6">{MESSAGES.hookPacks.fetchFailed}</ErrorBanner> : null}
      {isPending ? (
        <Skeletons
          count={UI.hookPackPlaceholders}
          className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3"
          label="Loading hook packs"
          item={(i) => <HookPackCardPlaceholder key={i} />}
        />
      ) : isError ? null : packs.length === 0 ? (
        <EmptyState
          icon={<PackageOpenIcon className="size-6" aria-hidden="true" />}
          title={LIST_TEXT.emptyTitle}
          description={LIST_TEXT.emptyText}
          action={
            <ButtonLink to="/hook-packs/new" variant="brand">
              {LIST_TEXT.emptyButton}
            </ButtonLink>
          }
        />
      ) : (
        <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Hook packs">
          {packs.map((pack) => (
            <li key={pack.id} className="flex">
              <HookPackCard pack={pack} />
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
