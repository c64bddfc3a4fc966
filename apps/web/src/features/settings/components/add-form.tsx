import { Loader2Icon } from 'lucide-react';
import { useId, type ComponentProps, type FormEvent, type MouseEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

/** One labelled field with its submit button beside it (below on a phone): how the integration cards add a thing. */
export function AddForm({
  label,
  input,
  submitLabel,
  pending,
  disabled = false,
  onSubmit,
  onSubmitClick,
}: {
  label: string;
  input: Omit<ComponentProps<typeof Input>, 'id'>;
  submitLabel: string;
  pending: boolean;
  disabled?: boolean;
  onSubmit: (e: FormEvent) => void;
  onSubmitClick?: (e: MouseEvent<HTMLButtonElement>) => void;
}) {
  const id = useId();
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="min-w-0 flex-1 space-y-2">
        <Label htmlFor={id}>{label}</Label>
        <Input id={id} {...input} />
      </div>
      <Button type="submit" className="self-start" disabled={pending || disabled} onClick={onSubmitClick}>
        {pending ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
