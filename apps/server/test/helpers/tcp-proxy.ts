import net from 'node:net';

/** A port nobody listens on right now (the OS picks it; we close at once and hand the number out). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve, reject) => {
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', resolve);
  });
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

export interface TcpProxy {
  /** The port clients connect to instead of the target's. */
  readonly port: number;
  /**
   * Network cut: every open connection is reset and new ones are reset as soon as they arrive, so clients see
   * ECONNRESET / "Connection terminated" at once, as when the database host drops off the network and back.
   */
  cut(): void;
  /**
   * Network partition without resets: bytes stop flowing both ways on open connections and new connections
   * are accepted but never answered, so only the clients' own timeouts can end a request.
   */
  stall(): void;
  /**
   * Cuts (as `cut` does) the moment one connection's client-to-server bytes so far satisfy `trigger`, and resolves
   * then: a test can drop a connection at an exact step of a protocol exchange.
   */
  cutWhen(trigger: (sentSoFar: string) => boolean): Promise<void>;
  /** Forward again (a stalled connection resumes where it stopped); clients reconnect by themselves. */
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
}

/** A TCP proxy on 127.0.0.1 in front of `target`, which a test can cut, stall and restore. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>();
  let mode: 'up' | 'cut' | 'stall' = 'up';
  let armed: { trigger: (sentSoFar: string) => boolean; fired: () => void } | null = null;
  const reset = (s: net.Socket | null) => {
    if (!s || s.destroyed) return;
    try {
      s.resetAndDestroy();
    } catch {
      s.destroy();
    }
  };
  const drop = (pair: Pair) => {
    pairs.delete(pair);
    reset(pair.client);
    reset(pair.upstream);
  };
  const link = (pair: Pair) => {
    if (!pair.upstream) {
      const upstream = net.connect(target.port, target.host);
      pair.upstream = upstream;
      upstream.on('error', () => drop(pair));
      upstream.on('close', () => drop(pair));
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const unlink = (pair: Pair) => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.pause();
    pair.upstream?.pause();
  };
  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: null };
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    if (mode === 'cut') {
      reset(client);
      return;
    }
    pairs.add(pair);
    let sent = '';
    client.on('data', (chunk: Buffer) => {
      if (!armed) return;
      sent += chunk.toString('latin1');
      if (!armed.trigger(sent)) return;
      const { fired } = armed;
      armed = null;
      cut();
      fired();
    });
    if (mode === 'stall') client.pause();
    else link(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  const cut = () => {
    mode = 'cut';
    for (const p of [...pairs]) drop(p);
  };
  return {
    port,
    cut,
    cutWhen(trigger) {
      return new Promise<void>((fired) => {
        armed = { trigger, fired };
      });
    },
    stall() {
      mode = 'stall';
      for (const p of pairs) unlink(p);
    },
    restore() {
      const wasStalled = mode === 'stall';
      mode = 'up';
      if (wasStalled) for (const p of pairs) link(p);
    },
    async close() {
      mode = 'cut';
      for (const p of [...pairs]) drop(p);
      await new Promise((r) => server.close(r));
    },
  };
}
