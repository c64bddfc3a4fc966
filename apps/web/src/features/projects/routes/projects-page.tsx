import { MESSAGES, type Project, UI } from '@hookreel/contracts';
import { FolderOpenIcon, PlusIcon } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { useConfirmDelete } from '@/hooks/use-confirm-delete';
import { CardSkeleton, Skeletons } from '@/components/layout/skeletons';
import { ButtonLink } from '@/components/button-link';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { useDeleteProject } from '../api/delete-project';
import { useProjects } from '../api/get-projects';
import { ProjectCard } from '../components/project-card';

// The delete dialog's code loads only when someone asks to delete, not with the list.
const DeleteProjectDialog = lazy(() =>
  import('../components/delete-project-dialog').then((m) => ({ default: m.DeleteProjectDialog })),
);

const GRID = 'grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4 xl:grid-cols-6';

/** A project card while the list loads. */
const PROJECT_SKELETON = {
  testId: 'project-skeleton',
  media: 'aspect-square rounded-none',
  body: 'space-y-2 p-3',
  lines: ['h-4 w-3/4', 'h-3 w-1/3'],
};

/** /projects: 'Your Projects'. */
export function ProjectsPage() {
  const projects = useProjects();
  const del = useDeleteProject();
  const deletion = useConfirmDelete<Project>((id, options) => del.mutate(id, options), {
    deleted: MESSAGES.projects.deleted,
    failed: MESSAGES.projects.deleteFailed,
  });

  return (
    <Page>
      <PageHeader
        title="Your Projects"
        description="Open a project to pick actors and generate videos. Right-click or long-press a card for more."
        actions={
          <ButtonLink to="/new-video" variant="brand">
            <PlusIcon aria-hidden="true" /> New Video
          </ButtonLink>
        }
      />
      {projects.isError ? (
        <ErrorBanner
          className="mb-6"
          action={
            <Button size="sm" variant="outline" onClick={() => void projects.refetch()}>
              Try again
            </Button>
          }
        >
          {MESSAGES.projects.loadListFailed}
        </ErrorBanner>
      ) : null}
      {projects.isPending ? (
        <Skeletons
          count={UI.projectSkeletons}
          className={GRID}
          label="Loading projects"
          item={(i) => <CardSkeleton key={i} {...PROJECT_SKELETON} />}
        />
      ) : projects.data && projects.data.length === 0 ? (
        <EmptyState
          icon={<FolderOpenIcon className="size-6" aria-hidden="true" />}
          title="No projects yet"
          description="Create your first project to get started"
          action={
            <ButtonLink to="/new-video" variant="brand">
              <PlusIcon aria-hidden="true" /> Create Project
            </ButtonLink>
          }
        />
      ) : projects.data ? (
        <div className={GRID}>
          {projects.data.map((p) => (
            <ProjectCard key={p.id} project={p} onDelete={deletion.ask} />
          ))}
        </div>
      ) : null}
      {deletion.pending !== null ? (
        <Suspense fallback={null}>
          <DeleteProjectDialog open onOpenChange={(o) => !o && deletion.cancel()} onConfirm={deletion.confirm} />
        </Suspense>
      ) : null}
    </Page>
  );
}
