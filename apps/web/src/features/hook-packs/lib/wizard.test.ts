import { BIDI_CONTROL_MESSAGE, VALIDATION } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { approvedCharacterIds, defaultLines, defaultVariants } from './variants';
import { resumeStep, statusAdvances, validateCharacterTypes, validateHookMessage } from './wizard';

describe('wizard rules', () => {
  it('knows the furthest step a pack has reached from its status', () => {
    expect(resumeStep('created')).toBe(0);
    expect(resumeStep(null)).toBe(0);
    expect(resumeStep('product_uploaded')).toBe(1);
    expect(resumeStep('generating_characters')).toBe(2);
    expect(resumeStep('message_created')).toBe(3);
    expect(resumeStep('previews_ready')).toBe(5);
    expect(resumeStep('generating_videos')).toBe(5);
    expect(resumeStep('videos_ready')).toBe(6);
    expect(resumeStep('completed')).toBe(6);
  });

  it('validates character types: 0, 7 and blank', () => {
    expect(validateCharacterTypes([])).toBe(VALIDATION.characterTypesMin);
    expect(validateCharacterTypes(Array.from({ length: 7 }, (_, i) => `Type ${i}`))).toBe(VALIDATION.characterTypesMax);
    expect(validateCharacterTypes(['Runner', '   '])).toBe(VALIDATION.characterTypesBlank);
    expect(validateCharacterTypes(['Runner'])).toBeNull();
    expect(validateCharacterTypes(Array.from({ length: 6 }, (_, i) => `Type ${i}`))).toBeNull();
  });

  it('requires a hook message', () => {
    expect(validateHookMessage('  ')).toBe(VALIDATION.hookRequired);
    expect(validateHookMessage('Stop scrolling')).toBeNull();
    expect(validateHookMessage('Stop \u202escrolling')).toBe(BIDI_CONTROL_MESSAGE);
    expect(validateHookMessage('توقف 👀')).toBeNull();
  });

  it('only moves a pack forward', () => {
    expect(statusAdvances('created', 'product_uploaded')).toBe(true);
    expect(statusAdvances('previews_ready', 'message_created')).toBe(false);
    expect(statusAdvances('generating_videos', 'previews_ready')).toBe(false);
    expect(statusAdvances('weird_status', 'message_created')).toBe(true);
  });

  it('builds 12 pairs, the hook first, cycling approved characters in preview order', () => {
    const ids = approvedCharacterIds([
      { id: 9, approved: true, url: 'b.png', generated_character_id: 2 },
      { id: 3, approved: true, url: 'a.png', generated_character_id: 7 },
      { id: 4, approved: false, url: 'c.png', generated_character_id: 8 },
    ]);
    expect(ids).toEqual([7, 2]);
    const rows = defaultVariants({ hook: 'This serum cleared my skin', approvedCharacterIds: ids });
    expect(rows).toHaveLength(12);
    expect(rows[0]).toEqual({ index: 1, generated_character_id: 7, hook_text: 'This serum cleared my skin' });
    expect(rows[1]?.generated_character_id).toBe(2);
    expect(rows[1]?.hook_text).toBe('POV: This serum cleared my skin');
    // The server's suggestion (a model's) wins over the local library when it carries an angle per line.
    const suggested = { lines: ['Mine', 'Theirs'], angles: ['own', 'question'] as const };
    expect(defaultLines({ hook: 'Mine', suggested: { ...suggested, angles: [...suggested.angles] } })).toEqual([
      { text: 'Mine', angle: 'own' },
      { text: 'Theirs', angle: 'question' },
    ]);
    expect(new Set(rows.map((r) => r.hook_text)).size).toBe(12);
  });
});
