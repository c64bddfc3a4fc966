import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { jsonResponse, makeAvatar, testQueryClient } from '@/test/render';
import { useDeleteAvatar } from './delete-avatar';
import { useUploadAvatars } from './upload-avatars';

/** The picker's lists ranked for a description are cached apart from the plain list; writes must redo them. */
function setup() {
  const client = testQueryClient();
  const plain = queryKeys.avatars.list();
  const described = queryKeys.avatars.list({ description: 'young woman' });
  client.setQueryData(plain, [makeAvatar(1), makeAvatar(2)]);
  client.setQueryData(described, [makeAvatar(2), makeAvatar(1)]);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return { client, plain, described, wrapper };
}

afterEach(() => vi.unstubAllGlobals());

describe('avatar writes and the described lists', () => {
  it('a deletion drops the avatar from the plain list and marks the described lists stale', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(undefined, 204)),
    );
    const { client, plain, described, wrapper } = setup();
    const { result } = renderHook(() => useDeleteAvatar(), { wrapper });
    await act(() => result.current.mutateAsync(1));
    expect(client.getQueryData<Array<{ id: number }>>(plain)?.map((a) => a.id)).toEqual([2]);
    expect(client.getQueryState(described)?.isInvalidated).toBe(true);
    expect(client.getQueryState(plain)?.isInvalidated).toBe(false);
  });

  it('an upload marks the described lists stale too', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse([makeAvatar(9)])),
    );
    const { client, described, wrapper } = setup();
    const { result } = renderHook(() => useUploadAvatars(), { wrapper });
    await act(() => result.current.mutateAsync([new File(['x'], 'a.png', { type: 'image/png' })]));
    expect(client.getQueryState(described)?.isInvalidated).toBe(true);
  });
});
