import type { Page } from '@playwright/test';

/** Every error the page logs or throws, to assert none on the way; `ignore` passes over console errors it matches. */
export function watchProblems(page: Page, { ignore }: { ignore?: RegExp } = {}): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !ignore?.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  return problems;
}
