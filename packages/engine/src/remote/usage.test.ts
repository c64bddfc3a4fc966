import { describe, expect, it } from 'vitest';
import { formatUsage } from './usage.ts';

describe('provider usage log line', () => {
  it('names the provider, stage, model and the units billed', () => {
    expect(
      [
        { provider: 'elevenlabs', stage: 'voice' as const, model: 'eleven_multilingual_v2', characters: 120 },
        { provider: 'gemini', stage: 'placement' as const, model: 'gemini-2.5-flash-image', images: 1 },
        {
          provider: 'fal',
          stage: 'avatar' as const,
          model: 'fal-ai/bytedance/omnihuman',
          seconds: 8.44,
          requestId: 'r1',
        },
        { provider: 'fake', stage: 'vision' as const, model: 'm' },
      ].map(formatUsage),
    ).toEqual([
      'Provider cost: elevenlabs voice (eleven_multilingual_v2) 120 characters',
      'Provider cost: gemini placement (gemini-2.5-flash-image) 1 image',
      'Provider cost: fal avatar (fal-ai/bytedance/omnihuman) 8.4 s, request r1',
      'Provider cost: fake vision (m) nothing billable',
    ]);
  });
});
