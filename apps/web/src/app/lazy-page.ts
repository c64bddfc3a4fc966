import { lazy, type ComponentType } from 'react';

/** React.lazy for a named export, so each feature page is its own chunk. */
export function lazyPage<M extends Record<string, unknown>, K extends keyof M & string>(
  loader: () => Promise<M>,
  name: K,
) {
  return lazy(async () => ({ default: (await loader())[name] as ComponentType }));
}
