import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake received: the form-encoded parameters decoded into nested objects, as Stripe reads them. */
export interface StripeCall {
  method: string;
  path: string;
  params: Record<string, unknown>;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

export interface FakeStripe {
  /** STRIPE_API_URL for the server under test. */
  url: string;
  calls: StripeCall[];
  /** Makes the next `times` calls fail like a provider in trouble (HTTP 500 with a Stripe api_error). */
  failNext(times?: number): void;
  close(): Promise<void>;
}

/**
 * A local stand-in for the parts of the Stripe REST API we call (customers, Checkout Sessions, Customer Portal
 * sessions), speaking its documented protocol: form-encoded bodies with bracketed keys, bearer secret keys,
 * JSON objects with `object` and ids, and `{error: {type, message}}` on failure. The real SDK is pointed at it.
 */
export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const calls: StripeCall[] = [];
  let seq = 0;
  let failures = 0;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const params = decodeForm(body);
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      calls.push({
        method: req.method ?? 'GET',
        path,
        params,
        authorization: req.headers.authorization,
        idempotencyKey: header(req, 'idempotency-key'),
      });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++seq}` });
        res.end(JSON.stringify(json));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      if (failures > 0) {
        failures--;
        return send(500, { error: { type: 'api_error', message: 'Something went wrong on our end' } });
      }
      const id = (prefix: string) => `${prefix}_test${String(++seq).padStart(6, '0')}`;
      if (req.method === 'POST' && path === '/v1/customers') {
        return send(200, { id: id('cus'), object: 'customer', email: params.email, metadata: params.metadata ?? {} });
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        if (!params.customer || !params.mode || !params.success_url) {
          return send(400, { error: { type: 'invalid_request_error', message: 'Missing required param' } });
        }
        const sid = id('cs');
        return send(200, {
          id: sid,
          object: 'checkout.session',
          mode: params.mode,
          customer: params.customer,
          metadata: params.metadata ?? {},
          status: 'open',
          url: `https://checkout.stripe.test/c/pay/${sid}`,
        });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        const pid = id('bps');
        return send(200, {
          id: pid,
          object: 'billing_portal.session',
          customer: params.customer,
          return_url: params.return_url,
          url: `https://billing.stripe.test/p/session/${pid}`,
        });
      }
      return send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    failNext: (times = 1) => {
      failures = times;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `line_items[0][price_data][unit_amount]=19900` → { line_items: [{ price_data: { unit_amount: '19900' } }] } */
export function decodeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1] as string);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Record<string, unknown> | unknown[];
      }
    });
  }
  return out;
}
