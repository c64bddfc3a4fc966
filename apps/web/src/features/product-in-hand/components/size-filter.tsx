import { capitalise, type SizeClass } from '@hookreel/contracts';
import { FilterIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { ALL_SIZES, toggleSize } from '../lib/actors';

/** 'Filter Size' menu: small / medium / large checkboxes; the last checked one cannot be unchecked. */
export function SizeFilter({ value, onChange }: { value: SizeClass[]; onChange: (next: SizeClass[]) => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <FilterIcon aria-hidden="true" /> Filter Size
          {value.length < ALL_SIZES.length ? (
            <span className="text-xs text-muted-foreground">({value.length})</span>
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>Product size</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {ALL_SIZES.map((s) => (
          <DropdownMenuCheckboxItem
            key={s}
            checked={value.includes(s)}
            disabled={value.length === 1 && value.includes(s)}
            onCheckedChange={() => onChange(toggleSize(value, s))}
            onSelect={(e) => e.preventDefault()}
          >
            {capitalise(s)}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
