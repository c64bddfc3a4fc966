import type { Avatar } from '@hookreel/contracts';
import { CheckIcon, PlusIcon, SparklesIcon, UserIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { ErrorBanner } from '@/components/layout/banner';
import { Button } from '@/components/ui/button';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { ActorKindBadge } from '@/components/actor-kind-badge';
import { ActorLookDialog } from '@/components/actor-look-dialog';
import { ActorTalkingPreview } from '@/components/actor-talking-preview';
import { staticUrl } from '@/lib/urls';
import { cn } from '@/lib/utils';
import { useAvatars } from '../api/get-avatars';

/** A character picked in the editor; kept only in local screen state (docs/product.md#projects). */
export interface EditorCharacter {
  id: number;
  name: string;
  url?: string;
  /** A built-in catalogue actor (a drawing): Realistic needs the images provider to make it photoreal. */
  catalogue?: boolean;
  /** A catalogue actor the user made photoreal (decision 216): `url` is the still, and the tile says Photo. */
  photoreal?: boolean;
}

export const avatarName = (a: Pick<Avatar, 'id' | 'name'>) => a.name ?? `Actor ${a.id}`;

/** Adds the picked actors that are not already present (no duplicates). */
export function mergeCharacters(
  current: readonly EditorCharacter[],
  picked: readonly EditorCharacter[],
): EditorCharacter[] {
  const seen = new Set(current.map((c) => c.id));
  const out = [...current];
  for (const c of picked) {
    if (seen.has(c.id)) continue;
    seen.add(c.id);
    out.push(c);
  }
  return out;
}

type Step = 'closed' | 'describe' | 'pick';

export function CharactersSection({
  characters,
  onChange,
}: {
  characters: EditorCharacter[];
  onChange: (next: EditorCharacter[]) => void;
}) {
  const [step, setStep] = useState<Step>('closed');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  // The description the picker ranks by (decision 142); null after 'I don't know' or to fall back to the catalogue.
  const [described, setDescribed] = useState<string | null>(null);
  const avatars = useAvatars(step === 'pick', described ?? undefined);
  // The actor whose once-per-actor upgrades are shown (decision 216), or null.
  const [lookOf, setLookOf] = useState<EditorCharacter | null>(null);

  const open = () => {
    setDescription('');
    setSelected(new Set());
    setDescribed(null);
    setStep('describe');
  };
  const next = () => {
    if (!description.trim()) return;
    setDescribed(description.trim());
    setStep('pick');
  };
  const skip = () => {
    setDescribed(null);
    setStep('pick');
  };
  const toggle = (id: number) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const add = () => {
    const picked = (avatars.data ?? [])
      .filter((a) => selected.has(a.id))
      .map((a) => ({ id: a.id, name: avatarName(a), url: a.url, catalogue: a.catalogue, photoreal: a.photoreal }));
    onChange(mergeCharacters(characters, picked));
    setStep('closed');
  };
  const already = new Set(characters.map((c) => c.id));

  return (
    <section aria-labelledby="characters-heading" className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h2 id="characters-heading" className="text-lg font-semibold">
          Characters
        </h2>
        <Button variant="outline" size="sm" onClick={open}>
          <PlusIcon aria-hidden="true" /> Add Character
        </Button>
      </div>
      {characters.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No characters yet. Add the actors who will appear in your video.
        </p>
      ) : (
        <ul className="grid grid-cols-3 gap-3 sm:grid-cols-4 lg:grid-cols-6">
          {characters.map((c) => (
            <li
              key={c.id}
              data-testid="editor-character"
              className="group relative overflow-hidden rounded-lg border bg-card"
            >
              <div className="relative aspect-[9/16] bg-muted">
                {c.url ? (
                  <img src={staticUrl(c.url)} alt={c.name} className="absolute inset-0 size-full object-cover" />
                ) : (
                  <UserIcon className="absolute inset-0 m-auto size-8 text-muted-foreground" aria-hidden="true" />
                )}
                {c.photoreal ? (
                  <ActorKindBadge
                    avatar={{ kind: 'photo', own: false }}
                    className="absolute bottom-1.5 left-1.5 text-[10px]"
                  />
                ) : null}
              </div>
              <p className="truncate px-2 pt-1.5 text-xs font-medium">{c.name}</p>
              <button
                type="button"
                onClick={() => setLookOf(c)}
                className="flex w-full items-center gap-1 px-2 pb-1.5 text-left text-xs text-primary underline-offset-2 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring"
              >
                <SparklesIcon className="size-3" aria-hidden="true" />
                {c.catalogue && !c.photoreal ? 'Make photoreal…' : 'Photo options…'}
              </button>
              <button
                type="button"
                aria-label={`Remove ${c.name}`}
                onClick={() => onChange(characters.filter((x) => x.id !== c.id))}
                className="absolute top-1.5 right-1.5 flex size-7 items-center justify-center rounded-full bg-black/60 text-white opacity-100 transition-opacity outline-none focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring sm:opacity-0 sm:group-hover:opacity-100"
              >
                <XIcon className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}

      {lookOf ? (
        <ActorLookDialog
          avatarId={lookOf.id}
          name={lookOf.name}
          open
          onOpenChange={(o) => !o && setLookOf(null)}
          onPhoto={(url) => {
            if (characters.some((c) => c.id === lookOf.id && !c.photoreal)) {
              onChange(characters.map((c) => (c.id === lookOf.id ? { ...c, url, photoreal: true } : c)));
            }
          }}
        />
      ) : null}

      <TitledDialog
        open={step === 'describe'}
        onOpenChange={(o) => !o && setStep('closed')}
        title="Describe your character"
        description="Who should present your product? For example: “a young woman in a cozy kitchen”."
      >
        <Textarea
          aria-label="Character description"
          autoFocus
          value={description}
          maxLength={500}
          onChange={(e) => setDescription(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              next();
            }
          }}
        />
        <DialogFooter>
          <Button variant="ghost" onClick={skip}>
            I don't know
          </Button>
          <Button onClick={next} disabled={!description.trim()}>
            Next
          </Button>
        </DialogFooter>
      </TitledDialog>

      <TitledDialog
        open={step === 'pick'}
        onOpenChange={(o) => !o && setStep('closed')}
        className="sm:max-w-3xl"
        title="Choose characters"
        description={
          <>
            {described ? `Best matches for “${described}” first. ` : ''}Select one or more actors. Actors already in the
            project are marked.
          </>
        }
      >
        {avatars.isError ? (
          described ? (
            <ErrorBanner
              action={
                <Button size="sm" variant="outline" onClick={() => setDescribed(null)}>
                  Show all actors
                </Button>
              }
            >
              Could not match actors to your description.
            </ErrorBanner>
          ) : (
            <ErrorBanner>Failed to load actors. Please try again.</ErrorBanner>
          )
        ) : null}
        {described && avatars.isPending ? (
          <p role="status" className="text-sm text-muted-foreground">
            Finding actors who match your description…
          </p>
        ) : null}
        <div
          role="group"
          aria-label="Actors"
          aria-busy={avatars.isPending}
          className="grid max-h-[55vh] auto-rows-max grid-cols-3 gap-3 overflow-y-auto p-1 sm:grid-cols-4 md:grid-cols-5"
        >
          {avatars.isPending
            ? Array.from({ length: 10 }, (_, i) => <Skeleton key={i} className="aspect-[9/16]" />)
            : (avatars.data ?? []).map((a, i) => {
                const on = selected.has(a.id);
                const best = described !== null && i === 0;
                const added = already.has(a.id);
                return (
                  <button
                    key={a.id}
                    type="button"
                    aria-pressed={on}
                    disabled={added}
                    onClick={() => toggle(a.id)}
                    className={cn(
                      'relative overflow-hidden rounded-lg border-2 text-left outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-50',
                      on ? 'border-primary' : 'border-transparent',
                    )}
                  >
                    <span className="relative block aspect-[9/16] bg-muted">
                      <ActorTalkingPreview
                        photoUrl={a.url}
                        previewUrl={a.preview_url}
                        name={a.name ?? 'Actor'}
                        avatarId={a.photoreal ? undefined : a.id}
                        decorative
                      />
                      {best ? (
                        <span className="absolute top-1.5 left-1.5 rounded-full bg-primary px-2 py-0.5 text-[10px] font-medium text-primary-foreground">
                          Best match
                        </span>
                      ) : null}
                      <ActorKindBadge avatar={a} className="absolute bottom-1.5 left-1.5 text-[10px]" />
                      {on ? (
                        <span className="absolute top-1.5 right-1.5 flex size-6 items-center justify-center rounded-full bg-primary text-primary-foreground">
                          <CheckIcon className="size-4" aria-hidden="true" />
                        </span>
                      ) : null}
                    </span>
                    <span className="block truncate px-1.5 py-1 text-xs">
                      {avatarName(a)}
                      {added ? ' (added)' : ''}
                    </span>
                  </button>
                );
              })}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => setStep('closed')}>
            Cancel
          </Button>
          <Button onClick={add} disabled={selected.size === 0}>
            Add {selected.size} Characters
          </Button>
        </DialogFooter>
      </TitledDialog>
    </section>
  );
}
