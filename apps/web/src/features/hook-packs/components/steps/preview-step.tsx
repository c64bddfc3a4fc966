import {
  type GeneratedCharacter,
  type HookPack,
  INSUFFICIENT_CREDITS,
  MESSAGES,
  type PreviewCharacter,
  VALIDATION,
} from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { errorDetail, isApiError } from '@/lib/api-client';
import { useGeneratePreviews } from '../../api/generate-previews';
import { isPreviewPending } from '../../api/get-hook-pack';
import { hookPackKeys } from '../../api/keys';
import { type RegenerateReason, useRegeneratePreview } from '../../api/regenerate-preview';
import { patchCachedPreview, useUpdatePreview } from '../../api/update-preview';
import { useCreditsSpent, usePaidErrorToast } from '../../lib/use-paid-error';
import type { StepProps } from '../../lib/wizard-data';
import { PlacementDialog } from '../placement-dialog';
import { PreviewCard } from '../preview-card';
import { StepStatus } from '../step-status';
import { StepFrame } from '../wizard-stepper';

/** A not-yet-generated preview of a character: negative id, opens the editor instead of approving. */
const placeholderPreview = (c: GeneratedCharacter): PreviewCharacter => ({
  id: -c.id,
  generated_character_id: c.id,
  url: null,
  errors: null,
  approved: false,
  status: 'pending',
  created_at: '',
  position_x: null,
  position_y: null,
  scale: null,
  rotation: null,
});

/** The previews to show: one per selected character (a placeholder until generated), plus any other approved one. */
export function previewRows(
  pack: HookPack,
): Array<{ character: GeneratedCharacter | null; preview: PreviewCharacter }> {
  const latest = new Map<number, PreviewCharacter>();
  for (const p of [...pack.preview_characters].sort((a, b) => a.id - b.id)) latest.set(p.generated_character_id, p);
  const characters = new Map(pack.generated_characters.map((c) => [c.id, c] as const));
  const rows: Array<{ character: GeneratedCharacter | null; preview: PreviewCharacter }> = pack.generated_characters
    .filter((c) => c.selected && c.url)
    .map((c) => ({ character: c, preview: latest.get(c.id) ?? placeholderPreview(c) }));
  const shown = new Set(rows.map((r) => r.preview.generated_character_id));
  for (const p of latest.values()) {
    if (!shown.has(p.generated_character_id) && p.approved)
      rows.push({ character: characters.get(p.generated_character_id) ?? null, preview: p });
  }
  return rows;
}

/** Step 5: previews of the chosen characters holding the product; approve at least one. */
export function PreviewStep({ pack, advance, back, advancing }: StepProps) {
  const queryClient = useQueryClient();
  const generate = useGeneratePreviews();
  // A refusal says why: 'Preview data not found' when the preview is gone (another tab made the step again) or has
  // no picture to approve. A server or network failure keeps the generic message (decision 198).
  const update = useUpdatePreview(pack?.id ?? null, (e) =>
    toast.error(
      isApiError(e) && e.status < 500
        ? errorDetail(e, MESSAGES.hookPacks.approvalFailed)
        : MESSAGES.hookPacks.approvalFailed,
    ),
  );
  const regenerate = useRegeneratePreview();
  const paidError = usePaidErrorToast();
  const creditsSpent = useCreditsSpent();
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{
    character: GeneratedCharacter | null;
    preview: PreviewCharacter | null;
  } | null>(null);
  const requested = useRef(new Set<number>());

  const rows = pack ? previewRows(pack) : [];
  const missing = rows.filter((r) => r.preview.id < 0 && r.character).map((r) => r.character!.id);
  const missingKey = missing.join(',');

  // Generate the previews of chosen characters that have none yet (JSON call, automatic placement).
  useEffect(() => {
    if (!pack) return;
    const ids = missing.filter((id) => !requested.current.has(id));
    if (ids.length === 0) return;
    ids.forEach((id) => requested.current.add(id));
    generate.mutate(
      { hookPackId: pack.id, characterIds: ids },
      {
        onSuccess: creditsSpent,
        onError: (e) => {
          // After a 409 the previews another tab ordered are on the server: show them.
          void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(pack.id) });
          paidError(e, INSUFFICIENT_CREDITS.previews, MESSAGES.hookPacks.previewImagesFailed);
        },
      },
    );
    // missingKey summarises `missing`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pack?.id, missingKey]);

  if (!pack) return null;
  const approvedCount = rows.filter((r) => r.preview.approved && r.preview.id > 0).length;
  const pendingCount = rows.filter((r) => r.preview.id > 0 && isPreviewPending(r.preview)).length;

  const toggleApproval = (character: GeneratedCharacter | null, preview: PreviewCharacter) => {
    if (preview.id < 0) {
      setEditing({ character, preview: null });
      return;
    }
    setError(null);
    update.mutate({ previewId: preview.id, approved: !preview.approved });
  };

  const onRegenerate = (character: GeneratedCharacter | null, preview: PreviewCharacter, reason: RegenerateReason) => {
    if (preview.id < 0 || !character) {
      toast.error(MESSAGES.hookPacks.cannotRegenerate);
      return;
    }
    patchCachedPreview(queryClient, pack.id, preview.id, {
      url: null,
      errors: null,
      approved: false,
      status: 'rejected',
    });
    regenerate.mutate(
      { previewId: preview.id, reason, hookPackId: pack.id },
      {
        onSuccess: creditsSpent,
        onError: (e) => {
          void queryClient.invalidateQueries({ queryKey: hookPackKeys.detail(pack.id) });
          paidError(e, INSUFFICIENT_CREDITS.previews, MESSAGES.hookPacks.regenerateFailed);
        },
      },
    );
  };

  const onContinue = () => {
    if (approvedCount === 0) {
      setError(VALIDATION.noApprovedCharacters);
      return;
    }
    void advance();
  };

  return (
    <StepFrame
      title="Preview"
      description="Check each character holding your product. Approve the ones you like, adjust the position, or regenerate."
      onBack={back}
      onContinue={onContinue}
      busy={advancing}
      error={error}
    >
      <StepStatus
        testId="approved-count"
        text={`${approvedCount} approved`}
        working={pendingCount > 0 || generate.isPending}
        workingText="Generating previews..."
      />
      {rows.length === 0 ? (
        <div className="rounded-xl border border-dashed p-10 text-center text-sm text-muted-foreground">
          No characters selected. Go back and pick at least one character.
        </div>
      ) : (
        <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-4">
          {rows.map(({ character, preview }, i) => (
            <li key={`${preview.generated_character_id}:${preview.id}`}>
              <PreviewCard
                preview={preview}
                characterUrl={character?.url ?? ''}
                kind={character?.kind ?? 'illustrated'}
                title={`Preview ${i + 1}${character ? ` — ${character.prompt}` : ''}`}
                generating={generate.isPending}
                onToggleApproval={() => toggleApproval(character, preview)}
                onEdit={() => setEditing({ character, preview: preview.id > 0 ? preview : null })}
                onRegenerate={(reason) => onRegenerate(character, preview, reason)}
              />
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <PlacementDialog
          key={`${editing.character?.id ?? 0}:${editing.preview?.id ?? 0}`}
          pack={pack}
          character={editing.character}
          preview={editing.preview}
          open
          onOpenChange={(open) => !open && setEditing(null)}
        />
      ) : null}
    </StepFrame>
  );
}
