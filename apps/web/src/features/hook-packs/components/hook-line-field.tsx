import type { ComponentProps } from 'react';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/utils';

type Props = Omit<ComponentProps<'textarea'>, 'onChange' | 'value'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/**
 * One hook line, wrapped over two rows so a whole line can be read and checked on a phone. A hook is a single
 * line of speech: Enter does nothing and pasted line breaks become spaces.
 */
export function HookLineField({ value, onValueChange, className, ...props }: Props) {
  return (
    <Textarea
      rows={2}
      value={value}
      className={cn('min-h-0 resize-none py-1.5', className)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.preventDefault();
      }}
      onChange={(e) => onValueChange(e.target.value.replace(/\r?\n/g, ' '))}
      {...props}
    />
  );
}
