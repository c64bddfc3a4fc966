import { Suspense, useEffect } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '@/components/brand';
import { PageLoader } from '@/components/layout/full-screen-loader';
import { SidebarInset, SidebarProvider, SidebarTrigger } from '@/components/ui/sidebar';
import { AppSidebar } from './app-sidebar';

/** Layout of every protected route: the sidebar plus the page. Pages load lazily inside it. */
export function AppShell() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo?.({ top: 0 });
  }, [pathname]);

  return (
    <SidebarProvider>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <AppSidebar />
      <SidebarInset>
        <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur md:hidden">
          <SidebarTrigger />
          <Link to="/projects" className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <Logo textClassName="text-base" />
          </Link>
        </header>
        <div id="main-content" tabIndex={-1} className="flex flex-1 flex-col outline-none">
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </div>
      </SidebarInset>
    </SidebarProvider>
  );
}
