import { describe, expect, it } from 'vitest';
import { ContentRuleError, NAMED_PERSON_MESSAGE, assertInventedPerson } from './content-rules.ts';
import { characterPrompt } from './openai.ts';

describe('invented people only', () => {
  it.each([
    'woman who looks like Taylor Swift',
    'Elon Musk holding a phone',
    'a celebrity chef in a kitchen',
    'Zendaya lookalike with curly hair',
    'man resembling Brad Pitt, casual',
    'deepfake of a news anchor',
  ])('refuses %j', (description) => {
    expect(() => assertInventedPerson(description)).toThrow(ContentRuleError);
    expect(() => assertInventedPerson(description)).toThrow(NAMED_PERSON_MESSAGE);
  });

  it.each([
    'Young Asian woman, 25, casual hoodie, bright kitchen',
    'Middle aged Latino dad in a grey T-shirt',
    'friendly British nurse after a night shift',
    'Gen Z creator with dyed hair',
    'A woman in her 30s, dark curly hair, smiling',
  ])('lets %j through', (description) => {
    expect(() => assertInventedPerson(description)).not.toThrow();
  });
});

describe('character prompt', () => {
  it('asks for a UGC selfie look with hands visible and an invented person', () => {
    const p = characterPrompt('woman in her 30s', 1);
    expect(p).toContain(
      'Vertical 9:16 smartphone selfie-video frame of a single real-looking person: woman in her 30s.',
    );
    expect(p).toMatch(/phone front camera/);
    expect(p).toMatch(/natural light/);
    expect(p).toMatch(/both hands visible/);
    expect(p).toMatch(/do not depict or resemble any real, named or famous individual/);
  });

  it('is stable for a seed and varies across seeds ("Generate More")', () => {
    expect(characterPrompt('man, 40', 7)).toBe(characterPrompt('man, 40', 7));
    const prompts = new Set(Array.from({ length: 8 }, (_, i) => characterPrompt('man, 40', i)));
    expect(prompts.size).toBeGreaterThanOrEqual(4);
  });
});
