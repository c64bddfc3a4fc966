import { ACTORS } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import { catalogueActorSpec, rankCatalogueActors } from './index.ts';
import { mergeStated, statedTraits, traitMatchScore } from './traits.ts';

describe('matching catalogue actors to a description', () => {
  it('puts a woman in her 20s with long brown hair first for that description', () => {
    const ranked = rankCatalogueActors(ACTORS, 'young woman in her 20s with long brown hair');
    const first = catalogueActorSpec(ranked[0]!.actor).traits;
    expect(first.gender).toBe('female');
    // The catalogue has no woman in her 20s; the nearest band with the long hair asked for comes first.
    expect(first.age).toBe('30s');
    expect(first.hairStyle).toBe('long');
    // Every woman ranks above every man: gender outweighs the rest.
    const genders = ranked.map((r) => r.actor.gender);
    expect(genders.lastIndexOf('female')).toBeLessThan(genders.indexOf('male'));
    expect(ranked.map((r) => r.score)).toEqual([...ranked.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('puts men first for a bearded man, and keeps catalogue order when nothing is stated', () => {
    const men = rankCatalogueActors(ACTORS, 'a man in his 40s with a beard');
    expect(men[0]!.actor.gender).toBe('male');
    const none = rankCatalogueActors(ACTORS, 'someone friendly');
    expect(none.map((r) => r.actor.id)).toEqual(ACTORS.map((a) => a.id));
    expect(none.every((r) => r.score === 0)).toBe(true);
  });

  it('scores a contradiction below silence and a neighbour between', () => {
    const traits = catalogueActorSpec(ACTORS[1]!).traits;
    const other = traits.gender === 'female' ? 'male' : 'female';
    expect(traitMatchScore({ gender: traits.gender }, traits)).toBeGreaterThan(0);
    expect(traitMatchScore({}, traits)).toBe(0);
    expect(traitMatchScore({ gender: other }, traits)).toBeLessThan(0);
    const exact = traitMatchScore({ age: traits.age }, traits);
    const near = traitMatchScore({ age: traits.age === '20s' ? '30s' : '20s' }, { ...traits, age: '30s' });
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(exact + 0.01);
  });

  it("lets the rules win and a language model's reading fill what they left open", () => {
    const merged = mergeStated('a woman', { gender: 'male', glasses: true });
    expect(merged.gender).toBe('female');
    expect(merged.glasses).toBe(true);
    expect(mergeStated('a woman')).toEqual(statedTraits('a woman'));
  });
});
