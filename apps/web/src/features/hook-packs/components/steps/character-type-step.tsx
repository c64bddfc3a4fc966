import { LIMITS, MESSAGES } from '@hookreel/contracts';
import { PlusIcon, SparklesIcon, Trash2Icon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useSaveCharacterTypes } from '../../api/save-character-types';
import type { CharacterGeneration } from '../../lib/use-character-generation';
import { CHARACTER_TYPE_IDEAS, validateCharacterTypes } from '../../lib/wizard';
import type { StepProps } from '../../lib/wizard-data';
import { PackCostEstimate } from '../pack-cost-estimate';
import { StepFrame } from '../wizard-stepper';
import { useServerPrices, withKnownCost } from '@/lib/api/prices';

const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Step 2: describe 1 to 6 character types; saving them starts generating 4 characters per type. */
export function CharacterTypeStep({
  pack,
  data,
  setData,
  advance,
  back,
  advancing,
  generation,
}: StepProps & { generation: CharacterGeneration }) {
  const prices = useServerPrices();
  // Characters made per type: the server's figure, not said until it has answered.
  const perType = prices.list?.characters_per_type ?? null;
  const saved = pack
    ? [...pack.character_types].sort((a, b) => a.order_index - b.order_index).map((t) => t.description)
    : [];
  const types = data.types ?? (saved.length > 0 ? saved : ['']);
  const [error, setError] = useState<string | null>(null);
  const save = useSaveCharacterTypes();

  const setTypes = (next: string[]) => {
    setError(null);
    setData((d) => ({ ...d, types: next }));
  };
  const add = (text = '') => {
    if (types.length >= LIMITS.characterTypesMax) {
      setError(validateCharacterTypes([...types, text]));
      return;
    }
    setTypes([...types, text]);
  };
  const applyIdea = (idea: string) => {
    const blank = types.findIndex((t) => !t.trim());
    if (blank >= 0) setTypes(types.map((t, i) => (i === blank ? idea : t)));
    else add(idea);
  };

  // Continuing generates the characters of the types that have none yet: that is this button's cost.
  const haveCharacters = new Set((pack?.generated_characters ?? []).map((c) => norm(c.prompt)));
  const freshCount = new Set(types.filter((t) => t.trim() && !haveCharacters.has(norm(t)))).size;

  const onContinue = async () => {
    const problem = validateCharacterTypes(types);
    setError(problem);
    if (problem || !pack) return;
    const descriptions = types.map((t) => t.trim());
    let savedTypes;
    try {
      savedTypes = await save.mutateAsync({ hookPackId: pack.id, descriptions });
    } catch (e) {
      toast.error(errorDetail(e, MESSAGES.hookPacks.saveTypesFailed));
      return;
    }
    // Only types with no characters yet are generated, so revisiting this step does not spend credits again.
    const have = new Set(pack.generated_characters.map((c) => norm(c.prompt)));
    const fresh = savedTypes.filter((t) => !have.has(norm(t.description)));
    if (await advance()) void generation.generateForTypes(fresh);
  };

  return (
    <StepFrame
      title="Character Type"
      description={`Describe the kinds of people who should present your product (${LIMITS.characterTypesMin} to ${LIMITS.characterTypesMax}). We generate ${perType ?? 'several'} characters for each type. These are illustrated: drawn, made-up people, not photos of anyone. To feature real people, add your own creators (Photo) at the Characters step.`}
      onBack={back}
      onContinue={onContinue}
      continueLabel={
        freshCount > 0
          ? withKnownCost(
              'Continue',
              perType === null ? null : prices.cost('characterGeneration', freshCount * perType),
            )
          : 'Continue'
      }
      busy={advancing || save.isPending}
      error={error}
    >
      <PackCostEstimate characterTypes={types.filter((t) => t.trim()).length} />
      <ol className="space-y-3">
        {types.map((t, i) => (
          <li key={i} className="flex items-end gap-2">
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor={`character-type-${i}`}>Character type {i + 1}</Label>
              <Input
                id={`character-type-${i}`}
                value={t}
                maxLength={LIMITS.characterDescriptionMax}
                placeholder="e.g. Young woman in her 20s, casual style, friendly"
                onChange={(e) => setTypes(types.map((x, j) => (j === i ? e.target.value : x)))}
                aria-invalid={error && !t.trim() ? true : undefined}
              />
            </div>
            <Button
              type="button"
              variant="ghost"
              size="icon"
              aria-label={`Remove character type ${i + 1}`}
              onClick={() => setTypes(types.filter((_, j) => j !== i))}
            >
              <Trash2Icon aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ol>
      {types.length === 0 ? <p className="text-sm text-muted-foreground">No character types yet.</p> : null}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="outline" onClick={() => add()}>
          <PlusIcon aria-hidden="true" /> Add Character Type
        </Button>
        <span className="text-xs text-muted-foreground">
          {types.length} / {LIMITS.characterTypesMax}
        </span>
      </div>
      <div className="space-y-2">
        <p className="flex items-center gap-1.5 text-sm font-medium">
          <SparklesIcon className="size-4 text-primary" aria-hidden="true" /> Ideas
        </p>
        <div className="flex flex-wrap gap-2">
          {CHARACTER_TYPE_IDEAS.map((idea) => (
            <button
              key={idea}
              type="button"
              onClick={() => applyIdea(idea)}
              className="rounded-full border px-3 py-1 text-xs text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              {idea}
            </button>
          ))}
        </div>
      </div>
    </StepFrame>
  );
}
