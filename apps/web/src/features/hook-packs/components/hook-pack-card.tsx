import { LIMITS, MESSAGES } from '@hookreel/contracts';
import { CheckIcon, ImageOffIcon, PencilIcon, WandSparklesIcon, XIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Progress } from '@/components/ui/progress';
import { errorDetail } from '@/lib/api-client';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { staticUrl } from '@/lib/urls';
import type { HookPackSummary } from '../api/get-hook-packs';
import { useUpdateHookPack } from '../api/update-hook-pack';
import { formatLongDate, LIST_TEXT, packDetails, packName } from '../lib/list';
import { HookPackStatusBadge } from './status-badge';

export function HookPackCard({ pack }: { pack: HookPackSummary }) {
  const [broken, setBroken] = useState(false);
  const src = staticUrl(pack.product_url);
  const name = packName(pack.name);
  return (
    <Card className="flex w-full flex-col gap-0 overflow-hidden p-0" data-testid="hook-pack-card">
      <div className="relative aspect-[4/3] bg-muted">
        {src && !broken ? (
          <img
            src={src}
            alt={name}
            loading="lazy"
            className="size-full object-contain p-4"
            onError={() => setBroken(true)}
          />
        ) : (
          <div className="flex size-full flex-col items-center justify-center gap-2 text-sm text-muted-foreground">
            <ImageOffIcon className="size-6" aria-hidden="true" />
            {LIST_TEXT.noImage}
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-4">
        <div className="flex items-start justify-between gap-3">
          <PackTitle id={pack.id} name={name} stored={pack.name} />
          <HookPackStatusBadge status={pack.status} />
        </div>
        <p className="text-xs text-muted-foreground">
          {LIST_TEXT.createdOn} <time dateTime={pack.created_at}>{formatLongDate(pack.created_at)}</time>
        </p>
        <p className="line-clamp-2 text-sm text-muted-foreground" data-testid="hook-pack-details">
          {packDetails(pack.product_details)}
        </p>
        {pack.realistic_upgrades ? <UpgradesUnderway packId={pack.id} {...pack.realistic_upgrades} /> : null}
        <Button asChild variant="outline" className="mt-auto w-full">
          <Link to={`/hook-packs/new/${pack.id}`} state={{ fromIndex: true }}>
            {LIST_TEXT.viewDetails}
          </Link>
        </Button>
      </div>
    </Card>
  );
}

/** The pack's videos being made realistic now, with their progress; opens the pack's job list. */
function UpgradesUnderway({ packId, count, progress }: { packId: number; count: number; progress: number }) {
  const label = count === 1 ? 'Making 1 video realistic' : `Making ${count} videos realistic`;
  return (
    <Link
      to={`/hook-packs/jobs/${packId}`}
      data-testid="pack-realistic-upgrades"
      aria-live="polite"
      className="block space-y-1 rounded-lg border px-3 py-2 text-xs outline-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <span className="flex items-center justify-between gap-2 font-medium">
        <span className="flex items-center gap-1.5">
          <WandSparklesIcon className="size-3.5" aria-hidden="true" />
          {label}
        </span>
        <span className="tabular-nums text-muted-foreground">{Math.round(progress)}%</span>
      </span>
      <Progress value={progress} aria-label={`${label}: progress`} />
    </Link>
  );
}

/** The pack's name; the pencil renames it in place (Enter saves, Escape cancels; a blank name changes nothing). */
function PackTitle({ id, name, stored }: { id: number; name: string; stored: string | null }) {
  const update = useUpdateHookPack();
  const [draft, setDraft] = useState<string | null>(null);
  const save = () => {
    const next = (draft ?? '').trim();
    if (!next || next === stored) {
      setDraft(null);
      return;
    }
    update.mutate(
      { id, name: next },
      {
        onSuccess: () => setDraft(null),
        onError: (e) => toast.error(errorDetail(e, MESSAGES.hookPacks.generic)),
      },
    );
  };
  if (draft === null) {
    return (
      <div className="flex min-w-0 items-center gap-1">
        <h2 className="min-w-0 truncate font-semibold" title={name}>
          {name}
        </h2>
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="size-7 shrink-0"
          aria-label={`Rename ${name}`}
          onClick={() => setDraft(stored ?? '')}
        >
          <PencilIcon aria-hidden="true" />
        </Button>
      </div>
    );
  }
  return (
    <form
      className="flex min-w-0 flex-1 items-center gap-1"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Input
        aria-label="Pack name"
        value={draft}
        maxLength={LIMITS.hookPackNameMax}
        autoFocus
        className="h-8"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <Button
        type="submit"
        variant="ghost"
        size="icon"
        className="size-8 shrink-0"
        aria-label="Save name"
        disabled={update.isPending}
      >
        <CheckIcon aria-hidden="true" />
      </Button>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-8 shrink-0"
        aria-label="Cancel rename"
        onClick={() => setDraft(null)}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </form>
  );
}

export function HookPackCardPlaceholder() {
  return (
    <Card className="gap-0 overflow-hidden p-0" data-testid="hook-pack-placeholder" aria-hidden="true">
      <Skeleton className="aspect-[4/3] rounded-none" />
      <div className="space-y-3 p-4">
        <Skeleton className="h-5 w-2/3" />
        <Skeleton className="h-3 w-1/3" />
        <Skeleton className="h-8 w-full" />
        <Skeleton className="h-9 w-full" />
      </div>
    </Card>
  );
}
