import { ImageOffIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { staticUrl } from '@/lib/urls';
import type { HookPackSummary } from '../api/get-hook-packs';
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
          <h2 className="min-w-0 truncate font-semibold" title={name}>
            {name}
          </h2>
          <HookPackStatusBadge status={pack.status} />
        </div>
        <p className="text-xs text-muted-foreground">
          {LIST_TEXT.createdOn} <time dateTime={pack.created_at}>{formatLongDate(pack.created_at)}</time>
        </p>
        <p className="line-clamp-2 text-sm text-muted-foreground" data-testid="hook-pack-details">
          {packDetails(pack.product_details)}
        </p>
        <Button asChild variant="outline" className="mt-auto w-full">
          <Link to={`/hook-packs/new/${pack.id}`} state={{ fromIndex: true }}>
            {LIST_TEXT.viewDetails}
          </Link>
        </Button>
      </div>
    </Card>
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
