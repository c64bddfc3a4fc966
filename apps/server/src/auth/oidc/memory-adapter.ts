import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/**
 * Storage for the local provider's short-lived state (interactions, sessions, codes). In memory on purpose:
 * the local provider only runs in embedded single-process mode, everything in it lives minutes, and after a
 * restart a person just picks their account again. Our own sessions (refresh tokens) are in the database.
 */
export function createMemoryAdapterFactory(): AdapterFactory {
  const stores = new Map<string, Map<string, Entry>>();
  const storeFor = (model: string) => {
    let store = stores.get(model);
    if (!store) stores.set(model, (store = new Map()));
    return store;
  };
  // Grants are looked up by id from other models' payloads, so revokeByGrantId has to scan every model.
  const allStores = () => [...stores.values()];

  return (model: string): Adapter => {
    const store = storeFor(model);
    const live = (id: string | undefined): Entry | undefined => {
      if (id === undefined) return undefined;
      const entry = store.get(id);
      if (entry && entry.expiresAt <= Date.now()) {
        store.delete(id);
        return undefined;
      }
      return entry;
    };
    const findBy = (field: 'uid' | 'userCode', value: string) => {
      for (const [id, entry] of store) if (entry.payload[field] === value) return live(id)?.payload;
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        if (store.size % 256 === 255) for (const key of [...store.keys()]) live(key); // drops expired entries
        store.set(id, { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
      },
      async find(id) {
        return live(id)?.payload;
      },
      async findByUid(uid) {
        return findBy('uid', uid);
      },
      async findByUserCode(userCode) {
        return findBy('userCode', userCode);
      },
      async consume(id) {
        const entry = live(id);
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(id);
      },
      async revokeByGrantId(grantId) {
        for (const s of allStores()) for (const [id, entry] of s) if (entry.payload.grantId === grantId) s.delete(id);
      },
    };
  };
}
