import { capitalise } from '@hookreel/contracts';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

/**
 * A labelled select over a fixed list of lower-case options shown capitalised — the language and accent
 * pickers of the project editor, the merge screen and the hook message step.
 */
export function OptionSelect<T extends string>({
  id,
  label,
  value,
  options,
  onChange,
  className,
  triggerClassName,
}: {
  id: string;
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  className?: string;
  triggerClassName?: string;
}) {
  return (
    <div className={cn('space-y-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={(v) => onChange(v as T)}>
        <SelectTrigger id={id} className={triggerClassName}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((o) => (
            <SelectItem key={o} value={o}>
              {capitalise(o)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
