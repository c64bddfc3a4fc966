import { BIDI_CONTROL_MESSAGE } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { serverForBlock } from './helpers/block-server.ts';
import { TEST_DIALECTS } from './helpers/database.ts';
import { createProjectOverHttp } from './helpers/factories.ts';
import { call } from './hook-helpers.ts';

/** Bidi control characters in scripts and hooks are refused with a clear 422; RTL letters and emoji are not. */
const CONTROLS = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe.each(TEST_DIALECTS)('bidi controls in scripts and hooks (%s)', (dialect) => {
  const t = serverForBlock(dialect);

  it('refuses every bidi control in a project script and keeps the old script', async () => {
    const id = await createProjectOverHttp(t.server, t.user, 'Bidi');
    const before = (await call(t.server, t.user, 'GET', `/api/projects/${id}`)).json.script;
    for (const c of CONTROLS) {
      const res = await call(t.server, t.user, 'PUT', `/api/projects/${id}`, { script: `Try it ${c}today` });
      expect(res.status, `U+${c.codePointAt(0)!.toString(16)}`).toBe(422);
      expect(res.json.detail).toBe(BIDI_CONTROL_MESSAGE);
    }
    expect((await call(t.server, t.user, 'GET', `/api/projects/${id}`)).json.script).toBe(before);
    const rtl = 'جربه اليوم. נסו את זה היום. Glow all day ✨🧴';
    const ok = await call(t.server, t.user, 'PUT', `/api/projects/${id}`, { script: rtl });
    expect(ok.status).toBe(200);
    expect(ok.json.script).toBe(rtl);
  });

  it('refuses a bidi control in a hook message', async () => {
    const pack = (await call(t.server, t.user, 'POST', '/api/hooks', { language: 'english', accent: 'american' })).json;
    const res = await call(t.server, t.user, 'PUT', `/api/hooks/${pack.id}`, { message: 'Stop \u202escrolling' });
    expect(res.status).toBe(422);
    expect(res.json.detail).toBe(BIDI_CONTROL_MESSAGE);
    const ok = await call(t.server, t.user, 'PUT', `/api/hooks/${pack.id}`, { message: 'توقف عن التمرير 👀' });
    expect(ok.status).toBe(200);
  });
});
