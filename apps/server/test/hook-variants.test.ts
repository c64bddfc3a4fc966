import { LIMITS } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { HOOK_ANGLES, mergeHookLines, writeHookLines, writeHookVariants } from '@hookreel/contracts';
import { characterSeed } from '../src/services/hook-packs/packs.ts';
import { autoPlacement } from '../src/services/hook-packs/placement.ts';

describe('hook-angle library', () => {
  it('frames a fragment hook so every line reads right', () => {
    const lines = writeHookVariants({ hook: 'Glow all day' });
    expect(lines[0]).toBe('Glow all day');
    expect(lines).toContain('Nobody talks about this: glow all day.');
    expect(lines.some((l) => /what if glow|reasons why glow/i.test(l))).toBe(false);
  });

  it('writes 12 lines from 12 different angles, the hook first, filled from the product analysis', () => {
    const input = {
      hook: 'This serum cleared my skin in 7 days!',
      productDetails: 'Glow Serum, vitamin C 15%',
      category: 'skincare',
    };
    const lines = writeHookLines(input);
    expect(lines).toHaveLength(LIMITS.videosPerHookPack);
    expect(lines[0]).toEqual({ angle: 'own', text: 'This serum cleared my skin in 7 days!' });
    const angles = lines.map((l) => l.angle);
    expect(new Set(angles).size).toBe(12);
    expect(angles).toEqual(
      expect.arrayContaining([
        'pov',
        'problem-agitate',
        'question',
        'listicle',
        'before-after',
        'testimonial',
        'objection',
        'curiosity-gap',
      ]),
    );
    const byAngle = new Map(lines.map((l) => [l.angle, l.text]));
    expect(byAngle.get('pov')).toBe('POV: you finally tried Glow Serum. This serum cleared my skin in 7 days!');
    expect(byAngle.get('problem-agitate')).toBe(
      'Tired of trying every skincare product out there? Same. This serum cleared my skin in 7 days!',
    );
    expect(byAngle.get('listicle')).toBe(
      '3 reasons I switched to Glow Serum. Number one: this serum cleared my skin in 7 days.',
    );
    expect(byAngle.get('before-after')).toBe(
      'Before Glow Serum: nothing worked. After: this serum cleared my skin in 7 days.',
    );
    expect(new Set(lines.map((l) => l.text)).size).toBe(12);
    expect(writeHookLines(input)).toEqual(lines);
    expect(lines.every((l) => l.text.length <= LIMITS.hookTextMax)).toBe(true);
  });

  it('has a wording for every angle without product or category, in every language, 12 distinct each', () => {
    const bare = writeHookLines({ hook: 'Glow all day' }, HOOK_ANGLES.length);
    expect(bare.map((l) => l.angle)).toEqual([...HOOK_ANGLES]);
    expect(bare.find((l) => l.angle === 'pov')?.text).toBe('POV: Glow all day');
    expect(bare.every((l) => !/undefined|null/.test(l.text))).toBe(true);
    for (const language of ['english', 'spanish', 'french', 'german', 'portuguese', 'dutch']) {
      for (const details of [null, 'Glow Serum, vitamin C']) {
        const lines = writeHookLines({ hook: 'Mi piel brilla', productDetails: details, category: 'food', language });
        expect(lines, language).toHaveLength(12);
        expect(new Set(lines.map((l) => l.angle)).size, language).toBe(12);
        expect(new Set(lines.map((l) => l.text)).size, language).toBe(12);
        expect(
          lines.every((l) => !/undefined|null/.test(l.text)),
          language,
        ).toBe(true);
      }
    }
    expect(writeHookVariants({ hook: 'Mi piel brilla', language: 'spanish' })[3]).toBe(
      '¿Quieres saber mi secreto? Mi piel brilla.',
    );
  });

  it('keeps "I" and acronyms capitalised mid-sentence, and German nouns', () => {
    const at = (hook: string, angle: string, language?: string) =>
      writeHookLines({ hook, language }, HOOK_ANGLES.length).find((l) => l.angle === angle)?.text;
    expect(at('I stopped buying coffee', 'pattern-interrupt')).toBe(
      'Stop scrolling if you need to hear this: I stopped buying coffee.',
    );
    expect(at('SPF that lasts', 'curiosity-gap')).toBe('Nobody talks about this: SPF that lasts.');
    expect(at('Haut wie neu', 'curiosity-gap', 'german')).toBe('Das hat mir niemand gesagt: Haut wie neu.');
    expect(writeHookVariants({ hook: '   ' })).toEqual([]);
  });

  it("completes a model's lines with the library's, each angle and each text once, the hook first", () => {
    const own = writeHookLines({ hook: 'Glow all day' }, HOOK_ANGLES.length);
    const merged = mergeHookLines(
      own,
      [
        { angle: 'question', text: 'Why does my skin glow?' },
        { angle: 'question', text: 'A second question' },
        { angle: 'pov', text: 'glow all day' },
      ],
      12,
    );
    expect(merged).toHaveLength(12);
    expect(merged[0]).toEqual({ angle: 'own', text: 'Glow all day' });
    expect(merged[1]).toEqual({ angle: 'question', text: 'Why does my skin glow?' });
    expect(new Set(merged.map((l) => l.angle)).size).toBe(12);
    expect(merged.some((l) => l.text === 'A second question')).toBe(false);
  });

  it('seeds the same people from the same description, and moves the product on a regenerate', () => {
    expect(characterSeed(' Young  Runner ', 2)).toBe(characterSeed('young runner', 2));
    expect(characterSeed('young runner', 1)).not.toBe(characterSeed('young runner', 2));
    expect(autoPlacement('a#0')).toEqual(autoPlacement('b#1'));
    expect(autoPlacement('a#0', 3)).not.toEqual(autoPlacement('a#0'));
    expect(autoPlacement('a#0', 3)).toEqual(autoPlacement('a#0', 3));
  });
});
