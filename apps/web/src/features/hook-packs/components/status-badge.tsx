import { hookPackBadge } from '@hookreel/contracts';
import { Badge } from '@/components/ui/badge';

/** Hook pack status badge: the contracts' label and colour (unknown statuses: capitalised words, gray). */
export function HookPackStatusBadge({ status, className }: { status: string; className?: string }) {
  const { label, colour } = hookPackBadge(status);
  return (
    <Badge variant={colour} className={className} data-testid="hook-pack-status" data-colour={colour}>
      {label}
    </Badge>
  );
}
