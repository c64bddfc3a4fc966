import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { OpenAIHookWriter, parseHookLines } from './hook-writer.ts';

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const writer = (url: string) =>
  new OpenAIHookWriter({
    baseUrl: `${url}/v1`,
    apiKey: 'sk-test',
    ttsModel: 'unused',
    textModel: 'llama3.1',
    retry: { baseDelayMs: 10, maxDelayMs: 100 },
  });

describe('OpenAI-compatible hook writer', () => {
  it('asks the chat model for variations and keeps the brand hook first', async () => {
    server = await startFakeServer(() => ({
      json: {
        choices: [
          {
            message: {
              content:
                '```json\n{"lines": ["POV: your skin glows by noon", "Glow all day", "Why is nobody talking about this serum?", 42]}\n```',
            },
          },
        ],
      },
    }));
    const lines = await writer(server.url).write({
      hook: 'Glow all day',
      productDetails: 'Glow Serum, vitamin C',
      language: 'english',
      count: 12,
    });
    expect(lines).toEqual(['Glow all day', 'POV: your skin glows by noon', 'Why is nobody talking about this serum?']);
    const req = server.requests[0]!;
    expect([req.method, req.path, req.headers.authorization]).toEqual([
      'POST',
      '/v1/chat/completions',
      'Bearer sk-test',
    ]);
    const body = req.json<{ model: string; messages: { role: string; content: string }[] }>();
    expect(body.model).toBe('llama3.1');
    expect(body.messages[0]!.content).toContain('"Glow all day"');
    expect(body.messages[0]!.content).toContain('Write 11 different variations');
  });

  it('retries a rate limit and surfaces a provider error', async () => {
    let n = 0;
    server = await startFakeServer(() =>
      ++n === 1
        ? { status: 429, headers: { 'retry-after': '0' }, json: { error: { message: 'slow down' } } }
        : { status: 400, json: { error: { message: 'model not found', type: 'invalid_request_error' } } },
    );
    await expect(writer(server.url).write({ hook: 'Hi', language: 'english', count: 3 })).rejects.toThrow(
      /model not found/,
    );
    expect(server.requests).toHaveLength(2);
  });

  it('parses lines leniently: strings only, trimmed, de-duplicated', () => {
    expect(parseHookLines('Sure! {"lines": [" A  line ", "a line", "", null, "\\"Quoted\\""]}')).toEqual([
      'A line',
      'Quoted',
    ]);
    expect(parseHookLines('no json here')).toEqual([]);
  });
});
