import { INSUFFICIENT_CREDITS, MESSAGES, type ActorLookStep } from '@hookreel/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { SparklesIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { CostTag } from '@/components/cost-tag';
import { DialogFooter, TitledDialog } from '@/components/titled-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { errorDetail } from '@/lib/api-client';
import { useActorLook, useMakeActorLook } from '@/lib/api/actor-look';
import { handlePaymentRequired } from '@/lib/payment';
import { queryKeys } from '@/lib/query-keys';
import { staticUrl } from '@/lib/urls';

/**
 * An actor's once-per-user upgrades (docs/product.md#photoreal-catalogue, decision 216): "Make photoreal" for a
 * catalogue actor and "Make real mouths" for a photo, each with its price before anything is spent, and what it
 * changes in words. Steps this server cannot do say why instead.
 */
export function ActorLookDialog({
  avatarId,
  name,
  open,
  onOpenChange,
  onPhoto,
}: {
  avatarId: number;
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Told the photoreal still's key once there is one, so the screen's own tile can show it. */
  onPhoto?: (photoUrl: string) => void;
}) {
  const look = useActorLook(avatarId, open);
  const queryClient = useQueryClient();
  const data = look.data;
  // Once a step finishes, the actor lists are read again so every card shows the photo and says Photo.
  const wasMaking = useRef(false);
  const making = !!data && (data.photoreal.job_id !== null || data.mouth_stills.job_id !== null);
  useEffect(() => {
    if (wasMaking.current && !making) void queryClient.invalidateQueries({ queryKey: queryKeys.avatars.all });
    wasMaking.current = making;
  }, [making, queryClient]);
  const photoUrl = data?.photo_url ?? null;
  useEffect(() => {
    if (photoUrl) onPhoto?.(photoUrl);
  }, [photoUrl, onPhoto]);

  return (
    <TitledDialog
      open={open}
      onOpenChange={onOpenChange}
      title={`${name}: photo options`}
      description="Made once for you and kept: every later Draft video with this actor uses them at the Draft price."
    >
      {!data ? (
        look.isError ? (
          <p role="alert" className="text-sm text-destructive">
            {errorDetail(look.error, 'Could not load this actor’s options.')}
          </p>
        ) : (
          <Skeleton className="h-40" />
        )
      ) : (
        <div className="space-y-4">
          {data.photo_url ? (
            <div className="flex items-center gap-3">
              <img
                src={staticUrl(data.photo_url)}
                alt={`${name} as a photo`}
                className="aspect-[9/16] w-20 rounded-md object-cover"
              />
              <Badge variant="blue" data-testid="look-photo">
                Photo
              </Badge>
            </div>
          ) : null}
          {/* A photo (an own creator) is already real-looking: only its mouths are offered. */}
          {data.photoreal.reason === MESSAGES.looks.photorealNotCatalogue ? null : (
            <LookStep
              avatarId={avatarId}
              step="photoreal"
              state={data.photoreal}
              title="Make photoreal"
              what="One real-looking photo of this actor, made by the images provider. Draft videos then animate that photo on this server instead of the drawing."
              done="Photoreal: Draft videos animate the photo."
              failed={MESSAGES.looks.photorealFailed}
              insufficient={INSUFFICIENT_CREDITS.photoreal}
            />
          )}
          <LookStep
            avatarId={avatarId}
            step="mouth-stills"
            state={data.mouth_stills}
            title="Make real mouths"
            what="A handful of mouth shapes with real teeth, edited from this actor’s own photo. Draft videos then show them instead of a drawn mouth."
            done="Real mouths: Draft videos show them."
            failed={MESSAGES.looks.mouthsFailed}
            insufficient={INSUFFICIENT_CREDITS.mouthStills}
          />
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Done
        </Button>
      </DialogFooter>
    </TitledDialog>
  );
}

function LookStep({
  avatarId,
  step,
  state,
  title,
  what,
  done,
  failed,
  insufficient,
}: {
  avatarId: number;
  step: 'photoreal' | 'mouth-stills';
  state: ActorLookStep;
  title: string;
  what: string;
  done: string;
  failed: string;
  insufficient: string;
}) {
  const make = useMakeActorLook(avatarId, step);
  const queryClient = useQueryClient();
  const ask = () =>
    make.mutate(undefined, {
      onError: (e) => {
        if (!handlePaymentRequired(e, insufficient, queryClient)) toast.error(errorDetail(e, failed));
      },
    });
  return (
    <section aria-label={title} data-testid={`look-${step}`} className="space-y-1.5 rounded-lg border p-3">
      <h3 className="text-sm font-semibold">{title}</h3>
      <p className="text-sm text-muted-foreground">{what}</p>
      {state.made ? (
        <p role="status" className="text-sm font-medium text-emerald-700">
          {done}
        </p>
      ) : state.job_id !== null ? (
        <p role="status" className="text-sm">
          Making it now…
        </p>
      ) : state.available ? (
        <Button size="sm" onClick={ask} disabled={make.isPending}>
          <SparklesIcon aria-hidden="true" />
          {title}
          <CostTag credits={state.price} />
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="look-unavailable">
          {state.reason}
        </p>
      )}
    </section>
  );
}
