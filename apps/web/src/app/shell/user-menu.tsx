import { LogOutIcon, SettingsIcon } from 'lucide-react';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

/**
 * The account menu in the sidebar's footer (Settings, Logout). Loaded only when first asked for: the menu and its
 * positioning library are about 20 KB of gzipped JavaScript every signed-in screen would otherwise wait for.
 */
export default function UserMenu({
  trigger,
  open,
  onOpenChange,
  email,
  side,
  onNavigate,
  onLogout,
}: {
  trigger: ReactElement;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  email: string;
  side: 'top' | 'right';
  onNavigate: () => void;
  onLogout: () => void;
}) {
  return (
    <DropdownMenu open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent side={side} align="end" className="w-56">
        <DropdownMenuLabel className="truncate font-normal text-muted-foreground">{email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings" onClick={onNavigate}>
            <SettingsIcon />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onLogout}>
          <LogOutIcon />
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
