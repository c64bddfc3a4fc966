import { LIMITS } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { writeHookVariants } from '@hookreel/contracts';
import { characterSeed } from '../src/services/hook-packs.ts';
import { autoPlacement } from '../src/services/hook-packs-placement.ts';

describe('hook variant writer', () => {
  it('frames a fragment hook so every line reads right', () => {
    const lines = writeHookVariants({ hook: 'Glow all day' });
    expect(lines[0]).toBe('Glow all day');
    expect(lines).toContain('Real talk: glow all day.');
    expect(lines.some((l) => /what if glow|reasons why glow/i.test(l))).toBe(false);
  });

  it('writes 12 distinct English lines, the user hook first, deterministically', () => {
    const input = { hook: 'This serum cleared my skin in 7 days!', productDetails: 'Glow Serum, vitamin C 15%' };
    const lines = writeHookVariants(input);
    expect(lines).toHaveLength(LIMITS.videosPerHookPack);
    expect(lines[0]).toBe('This serum cleared my skin in 7 days!');
    expect(new Set(lines).size).toBe(12);
    expect(lines).toContain('POV: This serum cleared my skin in 7 days');
    expect(lines.some((l) => l.startsWith('Stop scrolling if'))).toBe(true);
    expect(lines).toContain('Can I be honest? This serum cleared my skin in 7 days!');
    expect(lines.some((l) => l.includes('Glow Serum'))).toBe(true);
    expect(writeHookVariants(input)).toEqual(lines);
    expect(lines.every((l) => l.length <= LIMITS.hookTextMax)).toBe(true);
  });

  it('keeps "I" and acronyms capitalised mid-sentence and fills other languages to 12', () => {
    expect(writeHookVariants({ hook: 'I stopped buying coffee' })[2]).toBe(
      'Stop scrolling if you need to hear this: I stopped buying coffee.',
    );
    expect(writeHookVariants({ hook: 'SPF that lasts' })[3]).toBe('Nobody talks about this: SPF that lasts.');
    const es = writeHookVariants({ hook: 'Mi piel brilla', language: 'spanish' });
    expect(es).toHaveLength(12);
    expect(es[0]).toBe('Mi piel brilla');
    expect(es[1]).toBe('¿Te cuento algo? Mi piel brilla.');
    expect(writeHookVariants({ hook: '   ' })).toEqual([]);
  });

  it('seeds the same people from the same description, and moves the product on a regenerate', () => {
    expect(characterSeed(' Young  Runner ', 2)).toBe(characterSeed('young runner', 2));
    expect(characterSeed('young runner', 1)).not.toBe(characterSeed('young runner', 2));
    expect(autoPlacement('a#0')).toEqual(autoPlacement('b#1'));
    expect(autoPlacement('a#0', 3)).not.toEqual(autoPlacement('a#0'));
    expect(autoPlacement('a#0', 3)).toEqual(autoPlacement('a#0', 3));
  });
});
