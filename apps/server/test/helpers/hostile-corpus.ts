import fc from 'fast-check';
import type { RawRequest } from './raw-http.ts';
import { fillPath, paramsOf, routeKey, type RouteInfo } from './route-inventory.ts';
import { exampleOf, fieldsOf, kindOf, unwrap, wrongValuesFor } from './zod-shapes.ts';

/**
 * A deterministic corpus of bad requests for every route the app registers: wrong JSON types per body field
 * (from the route's zod schema), broken JSON, wrong content types, oversized bodies, bad multipart and hostile
 * images, path traversal, hostile ids, forged tokens and header abuse. Randomised values come from fast-check
 * with a fixed seed, so every run (and both passes of a run) sends the same bytes.
 */

export type Who = 'user' | 'admin' | 'anon' | 'forged';

export interface HostileCase extends RawRequest {
  kind: string;
  label: string;
  route: RouteInfo;
  who: Who;
  /** When set, the status must be one of these. */
  expectStatus?: number[];
}

export interface CorpusInput {
  routes: RouteInfo[];
  tokens: {
    user: string;
    admin: string;
    /** Sent instead of `user` where a request could end the account (DELETE /api/user/me). */
    sacrificial: string;
  };
  owned: {
    projectId: number;
    packId: number;
    characterId: number;
    previewId: number;
    jobId: number;
    avatarId: number;
    /** A stored file of the user's, served at /api/static/<key>. */
    fileKey: string;
  };
  /** Authorization header values that must never be accepted. */
  forgedAuthorizations: Array<{ label: string; value: string }>;
  /** Files for the upload routes: hostile images and a few harmless ones. */
  images: Array<{
    label: string;
    data: Buffer;
    filename: string;
    type: string;
    /** A real PNG/JPEG/WEBP (stored after re-encoding) rather than something to refuse. */
    acceptable: boolean;
    /** A photo with one usable face: routes that analyse faces accept only these among the acceptable. */
    face?: boolean;
  }>;
  /** A file just over the upload limit. */
  oversize: Buffer;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const isOidc = (r: RouteInfo) => r.url.startsWith('/api/oidc');
const hasBody = (r: RouteInfo) => BODY_METHODS.has(r.method);

/** Ids and path segments that are not ids: negative, huge, fractional, encoded traversal, NUL, injection. */
export const HOSTILE_IDS = [
  '-1',
  '0',
  '2147483648',
  '99999999999999999999999',
  '1.5',
  '1e3',
  '0x10',
  'NaN',
  'abc',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2fhookreel.db',
  '1%00',
  "1'%20OR%20'1'='1",
  'x'.repeat(2000),
];

/** Keys under /api/static that try to leave the file store. */
export const TRAVERSAL_KEYS = [
  '../../../../etc/passwd',
  '..%2f..%2f..%2f..%2fetc%2fpasswd',
  '%2e%2e/%2e%2e/%2e%2e/hookreel.db',
  '%252e%252e%252f%252e%252e%252fetc%252fpasswd',
  '/etc/passwd',
  '%2fetc%2fpasswd',
  'users/1/../../../hookreel.db',
  'users%00.png',
  'catalogue/%00/../../hookreel.db',
  '..\\..\\..\\windows\\win.ini',
  'C:%5CWindows%5Cwin.ini',
  '....//....//....//etc/passwd',
  'users/%2e%2e/%2e%2e/secret.json',
  '%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd',
  'a/'.repeat(300),
  '.',
  '',
];

/** Header lines that a server must shrug off: floods, broken framing, odd cookies and ranges. */
const HEADER_ABUSES: Array<{ label: string; headers: Array<[string, string]>; body?: string }> = [
  { label: 'huge header', headers: [['x-pad', 'a'.repeat(20_000)]] },
  { label: 'huge cookie', headers: [['cookie', `c=${'z'.repeat(12_000)}`]] },
  { label: 'bad cookie', headers: [['cookie', 'a=%ZZ%E0%A4%A; =; ;;; __proto__=x; hookreel_oidc_flow=%00garbage']] },
  { label: 'bad range', headers: [['range', 'bytes=999999999999-']] },
  {
    label: 'many ranges',
    headers: [['range', `bytes=${Array.from({ length: 200 }, (_, i) => `${i}-${i}`).join(',')}`]],
  },
  { label: 'garbage range', headers: [['range', 'pages=-1--5,abc']] },
  {
    label: 'duplicate content-length',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', '2'],
      ['content-length', '7'],
    ],
    body: '{}',
  },
  {
    label: 'content-length with chunked',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', '2'],
      ['transfer-encoding', 'chunked'],
    ],
    body: '2\r\n{}\r\n0\r\n\r\n',
  },
  { label: 'negative content-length', headers: [['content-length', '-1']] },
  { label: 'non-numeric content-length', headers: [['content-length', 'abc']] },
  { label: 'control characters', headers: [['x-bad', 'a\u0001b']] },
  {
    label: 'forwarded flood',
    headers: [['x-forwarded-for', Array.from({ length: 500 }, () => '10.0.0.1').join(', ')]],
  },
  { label: 'odd accept', headers: [['accept', 'application/json;q=abc, */*;q=-1, text/html;level=;']] },
  { label: 'long idempotency key', headers: [['idempotency-key', 'k'.repeat(5000)]] },
  { label: 'unknown transfer-encoding', headers: [['transfer-encoding', 'gzip, bogus']] },
];

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '[1,2',
  '{"a":1}}',
  "{'a':1}",
  '{"a":NaN}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '['.repeat(50_000),
];

const WRONG_CONTENT_TYPES: Array<{ label: string; type: string | null; body: string }> = [
  { label: 'text/plain', type: 'text/plain', body: 'hello' },
  { label: 'xml', type: 'application/xml', body: '<a><b>1</b></a>' },
  { label: 'json utf-16', type: 'application/json; charset=utf-16', body: '{}' },
  { label: 'form-urlencoded', type: 'application/x-www-form-urlencoded', body: 'a=1&b[]=2&__proto__[x]=1' },
  { label: 'no content-type', type: null, body: '{"a":1}' },
  { label: 'empty json', type: 'application/json', body: '' },
  { label: 'multipart without boundary', type: 'multipart/form-data', body: '--x\r\n\r\n' },
];

interface MultipartPart {
  name: string;
  value?: string;
  file?: { data: Buffer; filename: string; type: string };
  /** Raw header lines instead of the usual Content-Disposition. */
  rawHeaders?: string;
}

/** A multipart body by hand, so it can be wrong on purpose. */
export function multipartBody(boundary: string, parts: MultipartPart[], close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\n`;
    if (p.rawHeaders !== undefined) head += p.rawHeaders;
    else if (p.file)
      head += `Content-Disposition: form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: ${p.file.type}\r\n`;
    else head += `Content-Disposition: form-data; name="${p.name}"\r\n`;
    chunks.push(
      Buffer.from(`${head}\r\n`, 'latin1'),
      p.file ? p.file.data : Buffer.from(p.value ?? ''),
      Buffer.from('\r\n'),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** How each upload route names its file and which fields get a request past validation to the image code. */
type UploadSpec = {
  fileField: string;
  fields: (o: CorpusInput['owned']) => Record<string, string>;
  as: Who;
  /** Another path for an upload route already in this table: only the broken uploads, not every image again. */
  alias?: true;
  /** An empty file counts as no file (the preview editor's optional mask), so it is not refused. */
  emptyFileIsNone?: true;
  /** Its cap is above the image cap (music beds, 20 MB): its own tests send the file that is too large. */
  ownSizeCap?: true;
  /** Each photo's face is analysed (the avatar library, decision 190): a real image without a usable face is 422. */
  needsFace?: true;
};
const musicUpload: UploadSpec = { fileField: 'music', fields: () => ({}), as: 'user', alias: true, ownSizeCap: true };
const projectUpload: UploadSpec = { fileField: 'file', fields: () => ({ name: 'Hostile upload' }), as: 'user' };
export const UPLOAD_ROUTES: Record<string, UploadSpec> = {
  'POST /api/projects': { ...projectUpload, alias: true },
  'POST /api/projects/': projectUpload,
  'PUT /api/projects/:id/music': musicUpload,
  'PUT /api/hooks/:id/music': musicUpload,
  // An own voice-over is audio with the music bed's cap; its own tests send the file types and sizes.
  'PUT /api/projects/:id/voice-over': { ...musicUpload, fileField: 'voice_over' },
  // PNG or WEBP only (its own tests send the other types): here the broken uploads and the image cap.
  'PUT /api/brand-kit/logo': { fileField: 'logo', fields: () => ({}), as: 'user', alias: true },
  // A refused product picture is an error on its row (201), not a refused request: only the broken uploads here.
  'POST /api/batches': {
    fileField: 'products',
    fields: () => ({ name: 'Hostile batch', csv: 'product,actor,hook,script\r\nserum.png,1,,Try it.\r\n' }),
    as: 'user',
    alias: true,
    ownSizeCap: true,
  },
  'POST /api/avatars/upload': { fileField: 'files', fields: () => ({ consent: 'true' }), as: 'admin', needsFace: true },
  // A user's own creator: one face-checked photo with a name and the consent box, like the avatar library.
  'POST /api/creators': {
    fileField: 'photo',
    fields: () => ({ name: 'Hostile creator', consent: 'true' }),
    as: 'user',
    needsFace: true,
  },
  'POST /api/hooks/upload-product': {
    fileField: 'product_image',
    fields: (o) => ({ hook_pack_id: String(o.packId) }),
    as: 'user',
  },
  'POST /api/hooks/generate-preview': {
    fileField: 'mask_image',
    emptyFileIsNone: true,
    fields: (o) => ({
      hook_pack_id: String(o.packId),
      generated_character_id: String(o.characterId),
      position_x: '120',
      position_y: '300',
      scale: '0.3',
      rotation: '5',
    }),
    as: 'user',
  },
  'POST /api/merge/single': {
    fileField: 'mask_file',
    fields: (o) => ({
      project_id: String(o.projectId),
      character_id: String(o.avatarId),
      mask_data: JSON.stringify({ position_x: 100, position_y: 200, scale: 0.4, rotation: 0 }),
    }),
    as: 'user',
  },
};

/** Routes that take multipart bodies, by their declared `consumes` or their documented description. */
export const isUploadRoute = (r: RouteInfo): boolean =>
  !!r.schema.consumes?.includes('multipart/form-data') ||
  /multipart/i.test((r.schema as { description?: string }).description ?? '');

/** The id an owned resource has for each parameterised route (the first matching rule wins). */
function ownedParam(url: string, o: CorpusInput['owned']): string {
  const rules: Array<[RegExp, number | string]> = [
    [/\/oidc\/interaction\/:uid/, 'no-such-interaction'],
    [/\/hooks\/select-character\/:id/, o.characterId],
    [/\/hooks\/preview\/:id/, o.previewId],
    [/\/(hooks|hooks\/characters|jobs\/hook-pack)\/:id/, o.packId],
    [/\/jobs\/:id\/queue/, o.projectId],
    [/\/jobs\/:id/, o.jobId],
    [/\/avatars\/:id/, o.avatarId],
    [/:projectId|\/projects\/:id/, o.projectId],
  ];
  return String(rules.find(([re]) => re.test(url))?.[1] ?? 1);
}

const WILDCARD_DEFAULTS: Array<[RegExp, (o: CorpusInput['owned']) => string]> = [
  [/^\/api\/static\/\*$/, (o) => o.fileKey],
  [/^\/api\/oidc\/\*$/, () => '.well-known/openid-configuration'],
];

/** The route's path pointing at the user's own resources (or at `idOverride`). */
export function ownedPath(route: RouteInfo, o: CorpusInput['owned'], idOverride?: string): string {
  const values = Object.fromEntries(paramsOf(route.url).map((p) => [p, idOverride ?? ownedParam(route.url, o)]));
  const wildcard = WILDCARD_DEFAULTS.find(([re]) => re.test(route.url))?.[1](o) ?? 'index.css';
  return fillPath(route.url, values, wildcard);
}

/**
 * `n` items of `list` for the route at `index`, rotating so that consecutive routes get different ones and the
 * whole list is spread across the app; keeps the corpus wide but its run short.
 */
function rotate<T>(list: readonly T[], index: number, n: number): T[] {
  return Array.from({ length: Math.min(n, list.length) }, (_, k) => list[(index * n + k) % list.length]!);
}

export function buildCorpus(input: CorpusInput): HostileCase[] {
  const { routes, owned, tokens } = input;
  const cases: HostileCase[] = [];
  const bearerFor = (route: RouteInfo, who: Who): Array<[string, string]> => {
    if (who === 'anon' || who === 'forged') return [];
    if (routeKey(route) === 'DELETE /api/user/me') return [['authorization', `Bearer ${tokens.sacrificial}`]];
    return [['authorization', `Bearer ${who === 'admin' ? tokens.admin : tokens.user}`]];
  };
  // Writes to the avatar library are for admins: as anyone else they would stop at 403 before the interesting part.
  const defaultWho = (route: RouteInfo): Who =>
    route.url.startsWith('/api/avatars') && route.method !== 'GET' ? 'admin' : 'user';
  const add = (
    route: RouteInfo,
    kind: string,
    label: string,
    req: Partial<HostileCase> & { target: string },
    who: Who = defaultWho(route),
  ) => {
    cases.push({
      method: route.method,
      ...req,
      headers: [...bearerFor(route, who), ...(req.headers ?? [])],
      kind,
      label,
      route,
      who,
    });
  };
  const json = (v: unknown) => ({
    headers: [['content-type', 'application/json']] as Array<[string, string]>,
    body: JSON.stringify(v),
  });

  routes.forEach((route, index) => {
    // Requests that might succeed point DELETE routes at nothing, so the corpus never deletes what it attacks
    // with; the anonymous and forged ones aim at the real resource, which they must not reach.
    const realPath = ownedPath(route, owned);
    const path = route.method === 'DELETE' ? ownedPath(route, owned, '999999') : realPath;

    // Every route once without credentials: the baseline the forged tokens below must not improve on.
    add(route, 'anonymous', 'no credentials', { target: realPath }, 'anon');

    // Hostile ids in every path parameter (five per route in rotation); every fourth one anonymously.
    for (const [i, id] of rotate(HOSTILE_IDS, index, 5).entries()) {
      if (paramsOf(route.url).length === 0) break;
      add(
        route,
        'hostile-id',
        id.slice(0, 40),
        { target: ownedPath(route, owned, id) },
        i % 4 === 3 ? 'anon' : undefined,
      );
    }

    // Wrong JSON types for each body field, missing and extra fields, bodies of the wrong shape.
    const bodySchema = route.schema.body;
    if (bodySchema) {
      const base = exampleOf(bodySchema);
      const target = path;
      const element =
        kindOf(bodySchema) === 'array'
          ? (unwrap(bodySchema) as unknown as { _zod: { def: { element: typeof bodySchema } } })._zod.def.element
          : null;
      const fields = fieldsOf(element ?? bodySchema) ?? {};
      const wrap = (obj: Record<string, unknown>) => (element ? [obj] : obj);
      const objBase = (Array.isArray(base) ? base[0] : base) as Record<string, unknown>;
      for (const [field, schema] of Object.entries(fields)) {
        const fuzz = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: field.length * 7919 + index, numRuns: 1 });
        for (const wrong of [...rotate(wrongValuesFor(schema), index, 2), ...fuzz]) {
          add(route, 'body-field', `${field}=${JSON.stringify(wrong)?.slice(0, 30)}`, {
            target,
            ...json(wrap({ ...objBase, [field]: wrong })),
          });
        }
        const { [field]: _dropped, ...missing } = objBase;
        add(route, 'body-field', `without ${field}`, { target, ...json(wrap(missing)) });
      }
      const extra = JSON.parse('{"__proto__":{"is_admin":true},"constructor":{"prototype":{"x":1}}}') as object;
      for (const [label, body] of [
        ['valid example', base],
        [
          'extra fields',
          element
            ? [{ ...objBase, ...extra, user_id: 1, id: 1 }]
            : { ...objBase, ...extra, user_id: 1, is_admin: true, credits: 1e9 },
        ],
        ['empty object', {}],
        ['string', 'body'],
        ['null', null],
        ['1000 elements', Array.from({ length: 1000 }, () => objBase)],
      ] as const) {
        add(route, 'body-shape', label, { target, ...json(body) });
      }
    }

    // Wrong values in each query parameter, repeated and bracketed keys.
    const queryFields = route.schema.querystring ? (fieldsOf(route.schema.querystring) ?? {}) : {};
    for (const key of Object.keys(queryFields)) {
      for (const value of ['-1', 'x'.repeat(5000), '%E0%A4%A']) {
        add(route, 'query', `${key}=${value.slice(0, 20)}`, {
          target: `${path}${path.includes('?') ? '&' : '?'}${key}=${value}`,
        });
      }
      add(route, 'query', `${key} twice`, { target: `${path}?${key}=1&${key}=2` });
    }
    // Bracketed and prototype keys on every third route, and on every route that reads its query.
    if (index % 3 === 0 || Object.keys(queryFields).length > 0)
      add(route, 'query', 'bracketed keys', {
        target: `${path}?__proto__[admin]=1&constructor[prototype][x]=1&a[$ne]=1`,
      });

    if (hasBody(route)) {
      const target = path;
      for (const text of rotate(MALFORMED_JSON, index, 2)) {
        add(route, 'malformed-json', text.slice(0, 30), {
          target,
          headers: [['content-type', 'application/json']],
          body: text,
        });
      }
      for (const ct of rotate(WRONG_CONTENT_TYPES, index, 2)) {
        add(route, 'content-type', ct.label, {
          target,
          headers: ct.type ? [['content-type', ct.type]] : [],
          body: ct.body,
        });
      }
      // Over the 1 MB body limit, claimed or real (one of three per route): refused with 413 before anything
      // reads it (the OpenID provider's routes read their own bodies and are only held to "no 5xx").
      const tooLarge = isOidc(route) ? undefined : [413];
      const chunk = `{"pad":"${'y'.repeat(1_200_000)}"}`;
      const huge: Array<[string, Partial<HostileCase>]> = [
        ['1.5 MB JSON', json({ pad: 'x'.repeat(1_500_000) })],
        [
          'claims 5 GB',
          {
            headers: [
              ['content-type', 'application/json'],
              ['content-length', '5000000000'],
            ],
            body: '{}',
          },
        ],
        [
          '1.2 MB chunked',
          {
            headers: [
              ['content-type', 'application/json'],
              ['transfer-encoding', 'chunked'],
            ],
            body: `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
          },
        ],
      ];
      for (const [label, req] of rotate(huge, index, 1))
        add(route, 'huge', label, { target, ...req, expectStatus: tooLarge });

      // Broken multipart framing, sent to every route that takes a body.
      const b = 'hostileBoundary42';
      // Broken multipart framing, one per route in rotation; upload routes get every one.
      const mp: Array<[string, Buffer, string]> = [
        [
          'truncated',
          multipartBody(
            b,
            [
              { name: 'name', value: 'abc' },
              { name: 'file', file: { data: Buffer.alloc(64, 1), filename: 'a.png', type: 'image/png' } },
            ],
            false,
          ),
          b,
        ],
        ['wrong boundary', multipartBody('otherBoundary', [{ name: 'name', value: 'abc' }]), b],
        [
          '120 parts',
          multipartBody(
            b,
            Array.from({ length: 120 }, (_, i) => ({ name: `f${i}`, value: 'v' })),
          ),
          b,
        ],
        ['headerless part', multipartBody(b, [{ name: 'x', rawHeaders: '', value: 'abc' }]), b],
        [
          'traversal filename',
          multipartBody(b, [
            {
              name: 'file',
              file: { data: Buffer.from('abc'), filename: '../../../etc/passwd\u0000.png', type: 'image/png' },
            },
          ]),
          b,
        ],
        ['overlong boundary', multipartBody('b'.repeat(300), [{ name: 'name', value: 'abc' }]), 'b'.repeat(300)],
      ];
      for (const [label, body, boundary] of isUploadRoute(route) ? mp : rotate(mp, index, 1)) {
        add(route, 'bad-multipart', label, {
          target,
          headers: [['content-type', `multipart/form-data; boundary=${boundary}`]],
          body,
        });
      }
    }

    // Forged and malformed credentials, one per route in rotation (and all of them on /api/user/me below).
    for (const f of rotate(input.forgedAuthorizations, index, 1)) {
      add(route, 'forged-auth', f.label, { target: realPath, headers: [['authorization', f.value]] }, 'forged');
    }

    // Header abuse, two per route in rotation.
    for (const h of rotate(HEADER_ABUSES, index, 2)) {
      add(route, 'header', h.label, {
        target: path,
        headers: h.headers,
        ...(h.body !== undefined ? { body: h.body } : {}),
        autoLength: !h.headers.some(([k]) => k === 'content-length'),
      });
    }

    // Hostile images and broken uploads where the route really reads a file.
    const upload = UPLOAD_ROUTES[routeKey(route)];
    if (upload) {
      const b = 'uploadBoundary7';
      const send = (label: string, parts: MultipartPart[], expectStatus?: number[]) =>
        add(
          route,
          'upload',
          label,
          {
            target: path,
            headers: [['content-type', `multipart/form-data; boundary=${b}`]],
            body: multipartBody(b, parts),
            expectStatus,
          },
          upload.as,
        );
      const fields = Object.entries(upload.fields(owned)).map(([name, value]) => ({ name, value }));
      // The image code must see these: a refusal is 413/415/422 (not 401/404 from a wrong form), and a real
      // image is stored, 200 or 201 (or, on the paid routes, refused for want of credits, 402, or as a repeat of the same work
      // still on its way, 409: the corpus sends one placement for one actor many times).
      for (const img of upload.alias ? [] : input.images)
        send(
          img.label,
          [...fields, { name: upload.fileField, file: img }],
          (img.acceptable && (img.face || !upload.needsFace)) || (upload.emptyFileIsNone && img.data.length === 0)
            ? [200, 201, 402, 409]
            : [413, 415, 422],
        );
      send('no file', fields);
      send('file under another name', [...fields, { name: 'other', file: input.images[0]! }]);
      if (!upload.ownSizeCap)
        send(
          'oversized file',
          [
            ...fields,
            { name: upload.fileField, file: { data: input.oversize, filename: 'big.png', type: 'image/png' } },
          ],
          [413],
        );
      send('eleven files', [
        ...fields,
        ...Array.from({ length: 11 }, () => ({ name: upload.fileField, file: input.images[0]! })),
      ]);
    }
  });

  // Every forged credential against the one route that says who you are: each must be 401.
  const me = routes.find((r) => routeKey(r) === 'GET /api/user/me');
  for (const f of me ? input.forgedAuthorizations : []) {
    add(
      me!,
      'forged-auth',
      f.label,
      { target: '/api/user/me', headers: [['authorization', f.value]], expectStatus: [401] },
      'forged',
    );
  }
  // Keys that try to leave the file store, and ranges over a real file.
  const stat = routes.find((r) => routeKey(r) === 'GET /api/static/*');
  for (const key of stat ? TRAVERSAL_KEYS : []) {
    add(stat!, 'traversal', key.slice(0, 40), { target: `/api/static/${key}`, expectStatus: [400, 404, 422] }, 'anon');
    add(
      stat!,
      'traversal',
      `encoded ${key.slice(0, 40)}`,
      { target: `/api/static/${encodeURIComponent(key)}`, expectStatus: [400, 404, 422] },
      'anon',
    );
  }
  for (const r of routes.filter((x) => x.url.endsWith('*') && x.method === 'GET' && x !== stat)) {
    for (const key of TRAVERSAL_KEYS.slice(0, 6))
      add(r, 'traversal', key, { target: r.url.replace(/\*$/, key) }, 'anon');
  }
  for (const range of ['bytes=999999999-', 'bytes=-0', 'bytes=5-1', 'bytes=abc', 'bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6']) {
    if (stat)
      add(stat, 'range', range, { target: `/api/static/${owned.fileKey}`, headers: [['range', range]] }, 'anon');
  }
  return cases;
}
