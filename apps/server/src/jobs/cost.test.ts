import { describe, expect, it } from 'vitest';
import { addUsage, parseCost } from './cost.ts';

describe('job cost', () => {
  const calls = [
    { provider: 'elevenlabs', stage: 'voice' as const, model: 'eleven_multilingual_v2', characters: 120 },
    { provider: 'gemini', stage: 'placement' as const, model: 'gemini-2.5-flash-image', images: 1 },
    { provider: 'fal', stage: 'avatar' as const, model: 'fal-ai/bytedance/omnihuman', seconds: 8.44, requestId: 'r1' },
    { provider: 'fal', stage: 'avatar' as const, model: 'fal-ai/bytedance/omnihuman', seconds: 2.111 },
  ];

  it('adds each call to the running total and reads it back from the column', () => {
    const total = calls.reduce(addUsage, parseCost(null));
    expect(total).toEqual({ images: 1, characters: 120, seconds: 10.55, calls: 4 });
    expect(parseCost(JSON.stringify(total))).toEqual(total);
    expect(parseCost('not json')).toBeNull();
    expect(parseCost('{"images":-1}')).toBeNull();
  });
});
