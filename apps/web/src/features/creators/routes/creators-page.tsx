import { CREATOR_LIMITS, type Creator } from '@hookreel/contracts';
import { PencilIcon, PlusIcon, SparklesIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ActorKindBadge } from '@/components/actor-kind-badge';
import { ActorLookDialog } from '@/components/actor-look-dialog';
import { ActorTalkingPreview, previewPending } from '@/components/actor-talking-preview';
import { ConfirmDeleteDialog } from '@/components/confirm-delete-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { errorDetail } from '@/lib/api-client';
import { useCreators, useDeleteCreator, useRenameCreator } from '../api/creators';
import { AddCreatorDialog } from '../components/add-creator-dialog';

/**
 * /creators: the user's own creators (decision 202), private actors from photos of people who agreed. They appear
 * beside the catalogue wherever actors are chosen; each card keeps who agreed to what, and when.
 */
export function CreatorsPage() {
  const creators = useCreators();
  const [adding, setAdding] = useState(false);
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6 p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold">Your creators</h1>
          <p className="max-w-2xl text-sm text-muted-foreground">
            Real people who agreed to appear in your ads, animated from one photo. Only you see them; videos that
            animate them are labelled AI-generated.
          </p>
        </div>
        <Button onClick={() => setAdding(true)}>
          <PlusIcon aria-hidden="true" />
          Add creator
        </Button>
      </div>
      {creators.isError ? <p className="text-sm text-destructive">Your creators could not be loaded.</p> : null}
      {creators.data && creators.data.length === 0 ? (
        <p className="rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
          No creators yet. Add one from a photo of someone who agreed to appear in your ads.
        </p>
      ) : null}
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
        {creators.data?.map((c) => (
          <li key={c.id}>
            <CreatorCard creator={c} />
          </li>
        ))}
      </ul>
      <AddCreatorDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}

function CreatorCard({ creator }: { creator: Creator }) {
  const rename = useRenameCreator();
  const remove = useDeleteCreator();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(creator.name);
  const [confirming, setConfirming] = useState(false);
  // Their once-per-actor upgrades: real mouth stills made from their photo (decision 216).
  const [looking, setLooking] = useState(false);
  const agreed = new Date(creator.consent.confirmed_at).toLocaleDateString();
  const save = () =>
    rename.mutate(
      { id: creator.id, name: name.trim() },
      {
        onSuccess: () => setEditing(false),
        onError: (err) => toast.error(errorDetail(err, 'The creator could not be renamed')),
      },
    );
  return (
    <div data-testid="creator-card" className="flex flex-col overflow-hidden rounded-xl border bg-card shadow-sm">
      <span className="relative block aspect-[9/16] bg-muted">
        <ActorTalkingPreview photoUrl={creator.url} previewUrl={creator.preview_url} name={creator.name} />
        <ActorKindBadge avatar={creator} className="absolute top-2 left-2" />
        {previewPending(creator) ? (
          <span
            className="absolute inset-x-2 bottom-2 rounded-md bg-background/85 px-2 py-1 text-center text-xs text-muted-foreground"
            data-testid="preview-pending"
          >
            Making their talking preview…
          </span>
        ) : null}
      </span>
      <div className="space-y-2 p-3">
        {editing ? (
          <form
            className="flex gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <Input
              aria-label="Creator name"
              value={name}
              maxLength={CREATOR_LIMITS.nameMax}
              onChange={(e) => setName(e.target.value)}
              autoFocus
            />
            <Button type="submit" size="sm" disabled={!name.trim() || rename.isPending}>
              Save
            </Button>
          </form>
        ) : (
          <p className="truncate font-medium" title={creator.name}>
            {creator.name}
          </p>
        )}
        <p className="text-xs break-words text-muted-foreground [overflow-wrap:anywhere]" title={creator.consent.text}>
          Consent confirmed {agreed}
          {creator.consent.confirmed_by ? ` by ${creator.consent.confirmed_by}` : ''}
        </p>
        <div className="flex flex-wrap gap-1">
          <Button variant="ghost" size="sm" onClick={() => setEditing(!editing)} aria-label={`Rename ${creator.name}`}>
            <PencilIcon aria-hidden="true" />
            Rename
          </Button>
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={`Delete ${creator.name}`}>
            <Trash2Icon aria-hidden="true" />
            Delete
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => setLooking(true)}
            aria-label={`Real mouths for ${creator.name}`}
          >
            <SparklesIcon aria-hidden="true" />
            {creator.mouth_stills ? 'Real mouths ✓' : 'Real mouths…'}
          </Button>
        </div>
      </div>
      {looking ? <ActorLookDialog avatarId={creator.id} name={creator.name} open onOpenChange={setLooking} /> : null}
      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={() =>
          remove.mutate(creator.id, {
            onSuccess: () => toast.success('Creator deleted'),
            onError: (err) => toast.error(errorDetail(err, 'The creator could not be deleted')),
          })
        }
        title={`Delete ${creator.name}?`}
        description="Their photo and talking preview are deleted and they leave every project and hook pack that uses them. Videos already made stay in your jobs."
      />
    </div>
  );
}
