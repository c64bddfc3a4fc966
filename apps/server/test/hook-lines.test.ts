import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEngineConfig } from '../src/media/engine.ts';
import { startTestServer, type TestServer } from './helpers/app.ts';
import { registerUser, type TestUser } from './helpers/factories.ts';
import { call } from './hook-helpers.ts';

/**
 * A local stand-in for an OpenAI-compatible chat endpoint (the shape Ollama, vLLM and OpenAI answer with); it can
 * be switched to failing to prove the rule-based fallback.
 */
let failing = false;
const requests: Array<{ model: string }> = [];
const provider: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    requests.push(JSON.parse(body) as { model: string });
    res.setHeader('content-type', 'application/json');
    if (failing) {
      res.statusCode = 400;
      res.end(JSON.stringify({ error: { message: 'model is not loaded' } }));
      return;
    }
    const hooks = [
      { angle: 'pov', line: 'POV: your skin glows by noon' },
      { angle: 'question', line: 'Why is nobody talking about this serum?' },
      { angle: 'own', line: 'Glow all day' },
      { angle: 'made-up', line: 'An angle the library does not have' },
    ];
    res.end(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ hooks }) } }] }));
  });
});

describe('hook lines for a pack', () => {
  let server: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let packId: number;

  beforeAll(async () => {
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const port = (provider.address() as AddressInfo).port;
    // The engine reads its provider switches from the environment of the process.
    process.env.OPENAI_BASE_URL = `http://127.0.0.1:${port}/v1`;
    process.env.OPENAI_TEXT_MODEL = 'llama3.1';
    // Read again: a file before this one in the same worker may have loaded the engine's config already.
    resetEngineConfig();
    server = await startTestServer();
    alice = await registerUser(server);
    bob = await registerUser(server);
    packId = (await call(server, alice, 'POST', '/api/hooks', { language: 'english', accent: 'american' })).json.id;
    await call(server, alice, 'PUT', `/api/hooks/${packId}`, { message: 'Glow all day' });
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((r) => provider.close(r));
    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_TEXT_MODEL;
    resetEngineConfig();
  });

  it('asks the configured model for angle-labelled lines and keeps the hook first, topping up with the library', async () => {
    const res = await call(server, alice, 'GET', `/api/hooks/${packId}/hook-lines`);
    expect(res.status).toBe(200);
    expect(res.json.source).toBe('model');
    expect(res.json.lines).toHaveLength(12);
    expect(res.json.lines.slice(0, 3)).toEqual([
      'Glow all day',
      'POV: your skin glows by noon',
      'Why is nobody talking about this serum?',
    ]);
    expect(res.json.angles.slice(0, 3)).toEqual(['own', 'pov', 'question']);
    expect(new Set(res.json.lines).size).toBe(12);
    expect(new Set(res.json.angles).size).toBe(12);
    expect(res.json.lines).not.toContain('An angle the library does not have');
    expect(requests.at(-1)?.model).toBe('llama3.1');
  });

  it('uses the hook given in the query (the text being edited) over the saved one', async () => {
    const res = await call(
      server,
      alice,
      'GET',
      `/api/hooks/${packId}/hook-lines?hook=${encodeURIComponent('Try it')}`,
    );
    expect(res.json.lines[0]).toBe('Try it');
  });

  it('falls back to the local rules when the model fails', async () => {
    failing = true;
    const res = await call(server, alice, 'GET', `/api/hooks/${packId}/hook-lines`);
    failing = false;
    expect(res.status).toBe(200);
    expect(res.json.source).toBe('rules');
    expect(res.json.lines).toHaveLength(12);
    expect(res.json.lines[0]).toBe('Glow all day');
    expect(new Set(res.json.angles).size).toBe(12);
  });

  it("hides another user's pack", async () => {
    expect((await call(server, bob, 'GET', `/api/hooks/${packId}/hook-lines`)).status).toBe(404);
  });
});
