import { MESSAGES, type SizeClass, VALIDATION } from '@hookreel/contracts';
import { ArrowLeftIcon, ArrowRightIcon, UsersIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { toast } from 'sonner';
import { Skeletons } from '@/components/layout/skeletons';
import { errorDetail } from '@/lib/api-client';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { useSelectCharacters } from '@/lib/api/select-characters';
import { useProject } from '@/lib/api/get-project';
import { useProjectAvatars } from '../api/get-avatars';
import { ActorTile } from '../components/actor-tile';
import { SizeFilter } from '../components/size-filter';
import { ALL_SIZES, toggleId } from '../lib/actors';

export interface MergeLocationState {
  actorIds?: number[];
}

/** /product-in-hand/{projectId}/select-actor: choose the actors who will hold the product. */
export function SelectActorPage() {
  const projectId = Number(useParams().projectId);
  if (!Number.isInteger(projectId) || projectId <= 0) return <Navigate to="/new-video" replace />;
  return <SelectActor projectId={projectId} />;
}

function SelectActor({ projectId }: { projectId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const project = useProject(projectId);
  const [sizes, setSizes] = useState<SizeClass[]>([...ALL_SIZES]);
  const handed = (location.state as MergeLocationState | null)?.actorIds;
  const [selected, setSelected] = useState<number[]>(() => handed ?? []);
  // Opened from its address (a reload without history, a bookmark): the selection saved on the server, once the
  // project has loaded. Set while rendering, once, as React advises for state that follows loaded data.
  const [seeded, setSeeded] = useState(handed !== undefined);
  if (!seeded && project.data) {
    setSeeded(true);
    setSelected(project.data.characters.filter((c) => c.selected).map((c) => c.id));
  }
  const avatars = useProjectAvatars(
    projectId,
    sizes.length === ALL_SIZES.length ? undefined : sizes,
    project.isSuccess,
  );

  useEffect(() => {
    if (project.isError) {
      toast.error(MESSAGES.projects.loadFailed);
      navigate('/new-video', { replace: true });
    }
  }, [project.isError, navigate]);

  const saveSelection = useSelectCharacters(projectId);
  const proceed = async () => {
    if (selected.length === 0) return;
    // The server renders one video per selected, merged actor: the choice made here is that selection.
    try {
      await saveSelection.mutateAsync(selected);
    } catch (e) {
      toast.error(errorDetail(e, MESSAGES.hookPacks.saveSelectionFailed));
      return;
    }
    navigate(`/product-in-hand/${projectId}/merge`, { state: { actorIds: selected } satisfies MergeLocationState });
  };

  return (
    <Page className="pb-0 lg:pb-0">
      <Button variant="ghost" className="-ml-3 mb-2" onClick={() => navigate('/projects')}>
        <ArrowLeftIcon aria-hidden="true" /> Projects
      </Button>
      <PageHeader
        title="Select Actors"
        description={
          project.data
            ? `Choose the AI actors who will hold “${project.data.name}”.`
            : 'Choose the AI actors who will hold your product.'
        }
        actions={<SizeFilter value={sizes} onChange={setSizes} />}
      />
      {avatars.isError ? <ErrorBanner className="mb-6">{MESSAGES.avatars.loadFailed}</ErrorBanner> : null}
      {project.isPending || avatars.isPending ? (
        <Skeletons
          count={12}
          className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6"
          item="aspect-[9/16]"
        />
      ) : avatars.data && avatars.data.length === 0 ? (
        <EmptyState
          icon={<UsersIcon className="size-6" aria-hidden="true" />}
          title="No actors match this size filter"
        />
      ) : (
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-6">
          {(avatars.data ?? []).map((a) => (
            <ActorTile
              key={a.id}
              avatar={a}
              selected={selected.includes(a.id)}
              onToggle={() => setSelected((s) => toggleId(s, a.id))}
            />
          ))}
        </div>
      )}
      <div className="sticky bottom-0 z-20 -mx-4 mt-6 border-t bg-background/95 backdrop-blur sm:-mx-6 lg:-mx-8">
        <div className="flex items-center justify-between gap-3 px-4 py-3 sm:px-6 lg:px-8">
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {selected.length === 0 ? VALIDATION.selectOneActor : `${selected.length} actor(s) selected`}
          </p>
          <Button variant="brand" onClick={proceed} disabled={selected.length === 0 || saveSelection.isPending}>
            Continue <ArrowRightIcon aria-hidden="true" />
          </Button>
        </div>
      </div>
    </Page>
  );
}
