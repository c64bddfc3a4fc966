import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { consoleState } from './console';

// findBy*/waitFor give up after 1 s by default; the full suite runs web tests beside CPU-heavy renders, where a
// screen can take longer to settle. A liveness bound, not a speed check.
configure({ asyncUtilTimeout: 5_000 });

// jsdom gaps used by Radix and the shell.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};

beforeEach(() => {
  consoleState.allowed = false;
  consoleState.calls = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleState.calls.push(args);
  });
});

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
  document.cookie = 'sidebar_state=; max-age=0; path=/';
  const calls = consoleState.calls;
  if (!consoleState.allowed && calls.length > 0) {
    throw new Error(
      `console.error was called ${calls.length} time(s) (call allowConsoleError() if expected):\n` +
        calls.map((args) => args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' ')).join('\n'),
    );
  }
});
