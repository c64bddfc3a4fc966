import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { MODEL_HOOK_MAX, OpenAIHookWriter, parseHookLines } from './hook-writer.ts';

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
  it('asks the chat model for angle-labelled hooks and keeps the brand hook first', async () => {
    server = await startFakeServer(() => ({
      json: {
        choices: [
          {
            message: {
              content:
                '```json\n{"hooks": [{"angle": "pov", "line": "POV: your skin glows by noon"}, {"angle": "own", "line": "Glow all day"}, {"angle": "question", "line": "Why is nobody talking about this serum?"}, {"angle": "question", "line": "A second question?"}, {"angle": "vibes", "line": "Not an angle"}, {"angle": "listicle", "line": 42}]}\n```',
            },
          },
        ],
      },
    }));
    const lines = await writer(server.url).write({
      hook: 'Glow all day',
      productDetails: 'Glow Serum, vitamin C',
      category: 'skincare',
      language: 'english',
      count: 12,
    });
    expect(lines).toEqual([
      { angle: 'own', text: 'Glow all day' },
      { angle: 'pov', text: 'POV: your skin glows by noon' },
      { angle: 'question', text: 'Why is nobody talking about this serum?' },
    ]);
    const req = server.requests[0]!;
    expect([req.method, req.path, req.headers.authorization]).toEqual([
      'POST',
      '/v1/chat/completions',
      'Bearer sk-test',
    ]);
    const body = req.json<{ model: string; messages: { role: string; content: string }[] }>();
    expect(body.model).toBe('llama3.1');
    const prompt = body.messages[0]!.content;
    expect(prompt).toContain('"Glow all day"');
    expect(prompt).toContain('Write 11 variations');
    expect(prompt).toContain('Its category: skincare.');
    for (const a of ['problem-agitate', 'before-after', 'testimonial', 'objection', 'curiosity-gap', 'listicle']) {
      expect(prompt).toContain(`"${a}"`);
    }
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

  it('validates the answer: known angles once each, clean short lines only, nothing repaired', () => {
    const long = 'x'.repeat(MODEL_HOOK_MAX + 1);
    const answer = JSON.stringify({
      hooks: [
        { angle: ' POV ', line: ' A  line ' },
        { angle: 'question', line: 'a line' },
        { angle: 'objection', line: '' },
        { angle: 'listicle', line: long },
        { angle: 'testimonial', line: 'Hidden \u202Eevil' },
        { angle: 'own', line: 'Pretends to be the brand' },
        null,
        { angle: 'regret', line: '"Quoted"' },
      ],
    });
    expect(parseHookLines(`Sure! ${answer}`)).toEqual([
      { angle: 'pov', text: 'A line' },
      { angle: 'regret', text: 'Quoted' },
    ]);
    expect(parseHookLines('{"lines": ["an old answer shape"]}')).toEqual([]);
    expect(parseHookLines('no json here')).toEqual([]);
  });
});
