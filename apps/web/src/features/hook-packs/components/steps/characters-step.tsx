import { type GeneratedCharacter, MESSAGES, VALIDATION } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Link } from 'react-router';
import { FormError } from '@/components/form-error';
import { Skeletons } from '@/components/layout/skeletons';
import { ActorKindBadge } from '@/components/actor-kind-badge';
import { Button } from '@/components/ui/button';
import { getCharacters, isCharacterPending, useCharacters } from '../../api/get-characters';
import { hookPackKeys } from '../../api/keys';
import { useAddCreatorToPack, useOwnCreators } from '../../api/pack-creators';
import { useSelectCharacter } from '../../api/select-character';
import type { CharacterGeneration, PlaceholderCharacter } from '../../lib/use-character-generation';
import type { StepProps } from '../../lib/wizard-data';
import { CharacterTile, type TileState } from '../character-tile';
import { GenerateMoreDialog } from '../generate-more-dialog';
import { StepStatus } from '../step-status';
import { StepFrame } from '../wizard-stepper';
import { useServerPrices, withKnownCost } from '@/lib/api/prices';

type AnyCharacter = GeneratedCharacter | PlaceholderCharacter;
const isPlaceholder = (c: AnyCharacter): c is PlaceholderCharacter => 'placeholder' in c;

const ILLUSTRATED = <ActorKindBadge avatar={{ kind: 'illustrated', own: false }} />;
const PHOTO = <ActorKindBadge avatar={{ kind: 'photo', own: true }} />;

/**
 * Step 4: pick the generated characters (polled every second while rendering); 'Generate More' adds 4. The user's
 * own creators (photos of real people, decision 207) are offered beside them: picking one adds it to the pack.
 */
export function CharactersStep({
  pack,
  advance,
  back,
  advancing,
  generation,
}: StepProps & { generation: CharacterGeneration }) {
  const prices = useServerPrices();
  const packId = pack?.id ?? null;
  const queryClient = useQueryClient();
  const characters = useCharacters(packId);
  const select = useSelectCharacter(packId, () => toast.error(MESSAGES.hookPacks.saveSelectionFailed));
  const [moreOpen, setMoreOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const creators = useOwnCreators();
  const addCreator = useAddCreatorToPack(packId);
  const list: AnyCharacter[] = [
    ...(characters.data ?? []).filter((c) => c.kind !== 'photo'),
    ...generation.placeholders,
  ];
  const creatorCharacter = new Map(
    (characters.data ?? []).flatMap((c) => (c.creator_id !== null ? [[c.creator_id, c] as const] : [])),
  );
  const pickCreator = (creatorId: number) => {
    if (!packId) return;
    setError(null);
    const inPack = creatorCharacter.get(creatorId);
    if (inPack) toggle(inPack);
    else
      addCreator.mutate(
        { hookPackId: packId, creatorId },
        { onError: () => toast.error(MESSAGES.hookPacks.addCreatorFailed) },
      );
  };
  const selectedCount = (characters.data ?? []).filter((c) => c.selected).length;
  // Continuing makes a preview of every selected character that has none yet: that is this button's cost.
  const previewed = new Set((pack?.preview_characters ?? []).map((p) => p.generated_character_id));
  const newPreviews = (characters.data ?? []).filter((c) => c.selected && !previewed.has(c.id)).length;
  const pendingCount = (characters.data ?? []).filter(
    (c) => isCharacterPending(c) && !generation.failedIds.has(c.id),
  ).length;

  // Group by character type (in the types' order); 'Generate More' characters last.
  const types = pack ? [...pack.character_types].sort((a, b) => a.order_index - b.order_index) : [];
  const groups: Array<{ key: string; title: string; items: AnyCharacter[] }> = types.map((t) => ({
    key: `t${t.id}`,
    title: t.description,
    items: list.filter((c) => c.character_type_id === t.id),
  }));
  const typeIds = new Set(types.map((t) => t.id));
  const others = list.filter((c) => c.character_type_id === null || !typeIds.has(c.character_type_id));
  // Characters of an earlier set of types, or from 'Generate More', grouped by their description.
  const byPrompt = new Map<string, AnyCharacter[]>();
  for (const c of others) byPrompt.set(c.prompt, [...(byPrompt.get(c.prompt) ?? []), c]);
  for (const [prompt, items] of byPrompt) groups.push({ key: `p${prompt}`, title: prompt, items });
  const visible = groups.filter((g) => g.items.length > 0);

  const stateOf = (c: AnyCharacter): TileState =>
    isPlaceholder(c)
      ? 'placeholder'
      : generation.failedIds.has(c.id)
        ? 'failed'
        : isCharacterPending(c)
          ? 'pending'
          : 'ready';

  const toggle = (c: GeneratedCharacter) => {
    if (!packId) return;
    setError(null);
    select.mutate({ characterId: c.id, selected: !c.selected });
  };

  const onContinue = async () => {
    if (!packId) return;
    if (selectedCount === 0) {
      setError(VALIDATION.selectOneCharacter);
      return;
    }
    // Confirm the selection the server holds before moving on.
    setChecking(true);
    try {
      const selected = await getCharacters(packId, true);
      if (selected.length === 0) throw new Error('selection not saved');
    } catch {
      toast.error(MESSAGES.hookPacks.saveSelectionFailed);
      return;
    } finally {
      setChecking(false);
    }
    void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(packId) });
    await advance();
  };

  return (
    <StepFrame
      title="Characters"
      description="Pick the characters who will present your product. Selected characters get a preview holding your product. Illustrated characters are drawn by Hookreel from your descriptions: made-up people whose videos look like illustrations. Photo characters are your own creators: the photo of a real person who agreed is animated to talk, and those videos are labelled AI-generated."
      onBack={back}
      onContinue={onContinue}
      continueLabel={newPreviews > 0 ? withKnownCost('Continue', prices.cost('previewImage', newPreviews)) : 'Continue'}
      busy={advancing || checking}
      error={error}
      extraActions={
        <Button type="button" variant="outline" onClick={() => setMoreOpen(true)} className="w-full sm:w-auto">
          <PlusIcon aria-hidden="true" /> Generate More
        </Button>
      }
    >
      <StepStatus
        testId="selected-count"
        text={`${selectedCount} selected`}
        working={pendingCount > 0 || generation.generating}
        workingText="Generating characters..."
      />
      <section aria-label="Your creators" className="space-y-2" data-testid="pack-creators">
        <h3 className="flex items-center gap-2 text-sm font-medium">Your creators {PHOTO}</h3>
        {creators.data && creators.data.length > 0 ? (
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
            {creators.data.map((creator) => {
              const inPack = creatorCharacter.get(creator.id);
              return (
                <li key={creator.id} className="space-y-1">
                  <CharacterTile
                    url={creator.url}
                    prompt={creator.name}
                    selected={inPack?.selected ?? false}
                    state={addCreator.isPending && addCreator.variables?.creatorId === creator.id ? 'pending' : 'ready'}
                    label={`${creator.name} — your creator`}
                    badge={PHOTO}
                    previewUrl={creator.preview_url}
                    onToggle={() => pickCreator(creator.id)}
                  />
                  <p className="truncate text-xs text-muted-foreground" title={creator.name}>
                    {creator.name}
                  </p>
                </li>
              );
            })}
          </ul>
        ) : creators.isPending ? null : (
          <p className="text-sm text-muted-foreground">
            Add real people who agreed to appear in your ads on the{' '}
            <Link to="/creators" className="font-medium underline underline-offset-4">
              Creators
            </Link>{' '}
            page; they show up here.
          </p>
        )}
      </section>
      {characters.isPending && packId ? (
        <Skeletons
          count={4}
          className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6"
          item="aspect-[9/16] rounded-lg"
        />
      ) : characters.isError ? (
        <FormError>{MESSAGES.hookPacks.generateCharactersFailed}</FormError>
      ) : visible.length === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center text-sm text-muted-foreground">
          No characters yet. Go back to describe character types, or use Generate More.
        </div>
      ) : (
        <div className="space-y-6">
          {visible.map((g) => (
            <section key={g.key} aria-label={g.title} className="space-y-2">
              <h3 className="line-clamp-1 text-sm font-medium">{g.title}</h3>
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-6">
                {g.items.map((c, i) => (
                  <li key={c.id}>
                    <CharacterTile
                      url={c.url}
                      prompt={c.prompt}
                      selected={c.selected}
                      state={stateOf(c)}
                      label={`${g.title} — character ${i + 1}`}
                      badge={ILLUSTRATED}
                      onToggle={() => !isPlaceholder(c) && toggle(c)}
                      onRetry={isPlaceholder(c) ? () => void generation.retryPlaceholder(c) : undefined}
                    />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      <GenerateMoreDialog
        open={moreOpen}
        onOpenChange={setMoreOpen}
        onSubmit={(d) => void generation.generateMore(d)}
      />
    </StepFrame>
  );
}
