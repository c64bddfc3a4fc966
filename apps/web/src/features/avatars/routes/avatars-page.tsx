import { type Avatar, MESSAGES, UI } from '@hookreel/contracts';
import { ImagePlusIcon, UsersIcon } from 'lucide-react';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { useConfirmDelete } from '@/hooks/use-confirm-delete';
import { Skeletons } from '@/components/layout/skeletons';
import { errorDetail } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { EmptyState, ErrorBanner } from '@/components/layout/banner';
import { Page, PageHeader } from '@/components/layout/page';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useDeleteAvatar } from '../api/delete-avatar';
import { useAvatars } from '../api/get-avatars';
import { useUpdateBounds } from '../api/update-bounds';
import { useUploadAvatars } from '../api/upload-avatars';
import { AvatarCard } from '../components/avatar-card';
import { EditBoundsDialog } from '../components/edit-bounds-dialog';
import { UploadAvatarsDialog } from '../components/upload-avatars-dialog';
import { type Box, toSavedBounds } from '../lib/bounds-geometry';

const GRID = 'grid grid-cols-2 gap-4 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5';

/** /avatars: 'All Avatars'. */
export function AvatarsPage() {
  // The library is shared: only administrators change it (the server answers 403 to everybody else).
  const { isAdmin } = useAuth();
  const avatars = useAvatars();
  const upload = useUploadAvatars();
  const del = useDeleteAvatar();
  const bounds = useUpdateBounds();
  const picker = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [editing, setEditing] = useState<Avatar | null>(null);
  const deletion = useConfirmDelete<Avatar>((id, options) => del.mutate(id, options), {
    deleted: MESSAGES.avatars.deleted,
    failed: MESSAGES.avatars.deleteFailed,
  });
  const count = avatars.data?.length ?? 0;

  const onPick = (list: FileList | null) => {
    const images = Array.from(list ?? []).filter((f) => f.type.startsWith('image/'));
    if (picker.current) picker.current.value = '';
    if (images.length === 0 && (list?.length ?? 0) === 0) return;
    setFiles(images);
    setUploadOpen(true);
  };

  const doUpload = () =>
    upload.mutate(files, {
      onSuccess: (created) => {
        toast.success(MESSAGES.avatars.uploaded(created.length));
        setUploadOpen(false);
        setFiles([]);
      },
      onError: (e) => toast.error(errorDetail(e, MESSAGES.avatars.uploadFailed)),
    });

  const saveBounds = (box: Box) => {
    if (!editing) return;
    bounds.mutate(
      { id: editing.id, bounds: toSavedBounds(box) },
      {
        onSuccess: () => {
          toast.success(MESSAGES.avatars.boundsSaved);
          setEditing(null);
        },
        onError: (e) => toast.error(errorDetail(e, MESSAGES.avatars.saveBoundsFailed)),
      },
    );
  };

  return (
    <Page>
      <PageHeader
        title="All Avatars"
        description={avatars.isPending ? '\u00a0' : `${count} avatar(s) total`}
        actions={
          isAdmin ? (
            <>
              <input
                ref={picker}
                type="file"
                accept="image/*"
                multiple
                className="sr-only"
                aria-label="Choose avatar images"
                data-testid="avatar-file-input"
                onChange={(e) => onPick(e.target.files)}
              />
              <Button variant="brand" onClick={() => picker.current?.click()}>
                <ImagePlusIcon aria-hidden="true" /> New Avatars
              </Button>
            </>
          ) : undefined
        }
      />
      {avatars.isError ? <ErrorBanner className="mb-6">{MESSAGES.avatars.loadFailed}</ErrorBanner> : null}
      {avatars.isPending ? (
        <Skeletons
          count={UI.avatarSkeletons}
          className={GRID}
          label="Loading avatars"
          item={(i) => (
            <div key={i} data-testid="avatar-skeleton" className="overflow-hidden rounded-xl border">
              <Skeleton className="rounded-none" style={{ paddingBottom: '177.78%' }} />
              <Skeleton className="m-2 h-3 w-3/4" />
            </div>
          )}
        />
      ) : avatars.data && avatars.data.length === 0 ? (
        <EmptyState
          icon={<UsersIcon className="size-6" aria-hidden="true" />}
          title="No avatars yet"
          description="Generated avatars will appear here"
        />
      ) : avatars.data ? (
        <div className={GRID}>
          {avatars.data.map((a) => (
            <AvatarCard
              key={a.id}
              avatar={a}
              actions={isAdmin ? { onEdit: () => setEditing(a), onDelete: () => deletion.ask(a) } : null}
            />
          ))}
        </div>
      ) : null}

      <UploadAvatarsDialog
        open={uploadOpen}
        files={files}
        uploading={upload.isPending}
        onRemove={(i) => setFiles((fs) => fs.filter((_, j) => j !== i))}
        onCancel={() => {
          setUploadOpen(false);
          setFiles([]);
        }}
        onUpload={doUpload}
      />
      <EditBoundsDialog
        avatar={editing}
        saving={bounds.isPending}
        onCancel={() => setEditing(null)}
        onSave={saveBounds}
      />
      <ConfirmDeleteDialog
        open={deletion.pending !== null}
        onOpenChange={(o) => !o && deletion.cancel()}
        onConfirm={deletion.confirm}
        title="Delete Avatar"
        description={MESSAGES.avatars.deleteConfirm}
      />
    </Page>
  );
}
