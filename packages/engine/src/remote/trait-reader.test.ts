import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actorFromSeed } from '../actors/index.ts';
import { startFakeServer, type FakeServer } from './fake-server.ts';
import { OpenAITraitReader, parseTraits } from './trait-reader.ts';

let server: FakeServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = null;
});

describe('OpenAI-compatible trait reader', () => {
  it('asks the chat model once per description, keeps only known values, and fills what the rules left open', async () => {
    server = await startFakeServer(() => ({
      json: {
        choices: [
          {
            message: {
              content:
                '```json\n{"gender":"female","age":"60s+","hairColour":"silver","hairStyle":"bun","glasses":true,"beard":"none","clothing":"lavender","skin":"green"}\n```',
            },
          },
        ],
      },
    }));
    dir = await mkdtemp(path.join(tmpdir(), 'hookreel-traits-'));
    const reader = new OpenAITraitReader(
      {
        baseUrl: `${server.url}/v1`,
        apiKey: 'sk-test',
        ttsModel: 'unused',
        textModel: 'llama3.1',
        retry: { baseDelayMs: 10, maxDelayMs: 100 },
      },
      dir,
    );
    const stated = await reader.read('the matriarch of a big family');
    expect(stated).toEqual({
      gender: 'female',
      age: '60s+',
      hairStyle: 'bun',
      glasses: true,
      beard: 'none',
      clothing: '#b9a6e0',
    });
    expect(await reader.read('The matriarch of a big family ')).toEqual(stated);
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0]!.json<{ model: string; temperature: number; messages: { content: string }[] }>();
    expect(body.model).toBe('llama3.1');
    // No temperature: reasoning models refuse anything but the default.
    expect('temperature' in body).toBe(false);
    expect(body.messages[0]!.content).toContain('"the matriarch of a big family"');

    const spec = actorFromSeed('s1', 'the matriarch of a big family, with brown hair', stated);
    expect(spec.traits).toMatchObject({ gender: 'female', age: '60s+', hairStyle: 'bun', glasses: true });
    // The description's own words win over the model's reading.
    expect(spec.traits.hairColour).toBe('brown');
  });

  it('reads nothing from an answer that is not JSON', () => {
    expect(parseTraits('I cannot help with that.')).toEqual({});
    expect(parseTraits('{"gender": "robot", "glasses": "yes"}')).toEqual({});
  });
});
