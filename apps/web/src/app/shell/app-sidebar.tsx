import { formatCredits } from '@hookreel/contracts';
import {
  ChevronsUpDownIcon,
  ClapperboardIcon,
  ContactRoundIcon,
  CoinsIcon,
  FileSpreadsheetIcon,
  FolderKanbanIcon,
  HistoryIcon,
  LayersIcon,
  PlusIcon,
  RefreshCwIcon,
  SettingsIcon,
  ShieldCheckIcon,
  UsersRoundIcon,
  type LucideIcon,
} from 'lucide-react';
import { lazy, Suspense, useState, type ComponentProps } from 'react';
import { Link, useLocation } from 'react-router';
import { Logo } from '@/components/brand';
import { Button } from '@/components/ui/button';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuAction,
  SidebarMenuButton,
  SidebarMenuItem,
  useSidebar,
} from '@/components/ui/sidebar';
import { useAuth } from '@/lib/auth';
import { cn } from '@/lib/utils';

const loadUserMenu = () => import('./user-menu');
const UserMenu = lazy(loadUserMenu);

/** A sidebar link is active when the current path starts with the link's path (docs/product.md#shell). */
export const isLinkActive = (pathname: string, href: string): boolean => pathname.startsWith(href);

interface NavLinkItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

const MAIN_LINKS: NavLinkItem[] = [
  { to: '/projects', label: 'Projects', icon: FolderKanbanIcon },
  { to: '/hook-packs', label: 'Hook packs', icon: LayersIcon },
  { to: '/batches', label: 'Batch from CSV', icon: FileSpreadsheetIcon },
  { to: '/creators', label: 'Your creators', icon: ContactRoundIcon },
  { to: '/generated-videos', label: 'Generated videos', icon: ClapperboardIcon },
];
const AVATARS_LINK: NavLinkItem = { to: '/avatars', label: 'Avatars', icon: UsersRoundIcon };
const ADMIN_CREDITS_LINK: NavLinkItem = { to: '/admin/credits', label: 'Credits admin', icon: ShieldCheckIcon };
const SETTINGS_LINK: NavLinkItem = { to: '/settings', label: 'Settings', icon: SettingsIcon };

function NavItem({ item, pathname, onNavigate }: { item: NavLinkItem; pathname: string; onNavigate: () => void }) {
  const active = isLinkActive(pathname, item.to);
  const Icon = item.icon;
  return (
    <SidebarMenuItem>
      <SidebarMenuButton asChild isActive={active}>
        <Link to={item.to} aria-current={active ? 'page' : undefined} onClick={onNavigate}>
          <Icon aria-hidden="true" />
          <span>{item.label}</span>
        </Link>
      </SidebarMenuButton>
    </SidebarMenuItem>
  );
}

export function AppSidebar() {
  const { pathname } = useLocation();
  const { user, isAdmin, refreshUser, logout } = useAuth();
  const { isMobile, setOpenMobile } = useSidebar();
  const [refreshing, setRefreshing] = useState(false);
  // The account menu's code is fetched on the first click (or hover/focus) of its button.
  const [menuWanted, setMenuWanted] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMobile = () => {
    if (isMobile) setOpenMobile(false);
  };

  const onRefreshCredits = async () => {
    setRefreshing(true);
    try {
      await refreshUser();
    } finally {
      setRefreshing(false);
    }
  };

  const email = user?.email || 'User';
  const historyActive = isLinkActive(pathname, '/credits/history');
  const creditsActive = isLinkActive(pathname, '/credits') && !historyActive;
  const userButton = (props: ComponentProps<typeof SidebarMenuButton> = {}) => (
    <SidebarMenuButton size="lg" aria-label={`User menu for ${email}`} {...props}>
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary uppercase"
      >
        {email.charAt(0)}
      </span>
      <span className="min-w-0 flex-1 truncate text-sm font-medium">{email}</span>
      <ChevronsUpDownIcon className="ml-auto size-4 text-muted-foreground" aria-hidden="true" />
    </SidebarMenuButton>
  );

  return (
    <Sidebar collapsible="none" aria-label="Main navigation">
      <SidebarHeader className="gap-4 p-4">
        <Link
          to="/projects"
          onClick={closeMobile}
          className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-sidebar-ring"
        >
          <Logo />
        </Link>
        <Button asChild variant="brand" className="w-full justify-center">
          <Link to="/new-video" onClick={closeMobile}>
            <PlusIcon aria-hidden="true" />
            New Video
          </Link>
        </Button>
      </SidebarHeader>

      <SidebarContent>
        <nav aria-label="Primary">
          <SidebarGroup>
            <SidebarGroupContent>
              <SidebarMenu>
                {MAIN_LINKS.map((item) => (
                  <NavItem key={item.to} item={item} pathname={pathname} onNavigate={closeMobile} />
                ))}
                {isAdmin ? <NavItem item={AVATARS_LINK} pathname={pathname} onNavigate={closeMobile} /> : null}
                {isAdmin ? <NavItem item={ADMIN_CREDITS_LINK} pathname={pathname} onNavigate={closeMobile} /> : null}
              </SidebarMenu>
            </SidebarGroupContent>
          </SidebarGroup>

          <SidebarGroup>
            <SidebarGroupLabel>Resources</SidebarGroupLabel>
            <SidebarGroupContent>
              <SidebarMenu>
                <NavItem item={SETTINGS_LINK} pathname={pathname} onNavigate={closeMobile} />
              </SidebarMenu>
            </SidebarGroupContent>
          </SidebarGroup>

          <SidebarGroup>
            <SidebarGroupLabel>Account</SidebarGroupLabel>
            <SidebarGroupContent>
              <SidebarMenu>
                <SidebarMenuItem>
                  <SidebarMenuButton asChild isActive={creditsActive}>
                    <Link to="/credits" aria-current={creditsActive ? 'page' : undefined} onClick={closeMobile}>
                      <CoinsIcon aria-hidden="true" />
                      <span className="flex-1">Credits</span>
                    </Link>
                  </SidebarMenuButton>
                </SidebarMenuItem>
                <SidebarMenuItem>
                  {/* The balance opens the credit history: where every credit came from and went. */}
                  <SidebarMenuButton asChild isActive={historyActive} className="pr-10">
                    <Link
                      to="/credits/history"
                      aria-current={historyActive ? 'page' : undefined}
                      aria-label={`Credit balance ${formatCredits(user?.credits)}: view history`}
                      onClick={closeMobile}
                    >
                      <HistoryIcon aria-hidden="true" />
                      <span className="flex-1">Balance</span>
                      <span data-testid="credits-balance" className="font-mono text-xs tabular-nums">
                        {formatCredits(user?.credits)}
                      </span>
                    </Link>
                  </SidebarMenuButton>
                  <SidebarMenuAction
                    type="button"
                    aria-label="Refresh credits"
                    title="Refresh credits"
                    disabled={refreshing}
                    onClick={() => void onRefreshCredits()}
                  >
                    <RefreshCwIcon className={cn(refreshing && 'animate-spin')} aria-hidden="true" />
                  </SidebarMenuAction>
                </SidebarMenuItem>
              </SidebarMenu>
            </SidebarGroupContent>
          </SidebarGroup>
        </nav>
      </SidebarContent>

      <SidebarFooter className="border-t border-sidebar-border">
        {menuWanted ? (
          <Suspense fallback={userButton()}>
            <UserMenu
              trigger={userButton()}
              open={menuOpen}
              onOpenChange={setMenuOpen}
              email={email}
              side={isMobile ? 'top' : 'right'}
              onNavigate={closeMobile}
              onLogout={() => {
                closeMobile();
                void logout();
              }}
            />
          </Suspense>
        ) : (
          // Until first asked for, a plain button stands in for the menu's trigger (see user-menu.tsx).
          userButton({
            'aria-haspopup': 'menu',
            'aria-expanded': false,
            onPointerEnter: () => void loadUserMenu(),
            onFocus: () => void loadUserMenu(),
            onClick: () => {
              setMenuWanted(true);
              setMenuOpen(true);
            },
          })
        )}
      </SidebarFooter>
    </Sidebar>
  );
}
