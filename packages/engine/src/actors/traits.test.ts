import { describe, expect, it } from 'vitest';
import { ACTORS } from '@hookreel/contracts';
import { assertInventedPerson } from '../remote/content-rules.ts';
import { actorFromDescription, catalogueActorDescription, catalogueActorSpec } from './index.ts';
import { describeTraits, statedTraits, traitsFor, type ActorTraits } from './traits.ts';

type Expect = Partial<ActorTraits>;
/** Descriptions as users write them, and the traits the drawing must show. */
const CASES: Array<[string, Expect]> = [
  [
    'elderly grandmother with grey hair and glasses',
    { gender: 'female', age: '60s+', hairColour: 'grey', glasses: true },
  ],
  ['young woman in her 20s', { gender: 'female', age: '20s', beard: 'none' }],
  ['man in his 40s with a beard', { gender: 'male', age: '40s', beard: 'full' }],
  ['retired grandpa with white hair', { gender: 'male', age: '60s+', hairColour: 'white' }],
  ['a 35-year-old mom in a red sweater', { gender: 'female', age: '30s', clothing: '#d64541', garment: 'sweater' }],
  ['college student with blonde ponytail', { age: '20s', hairColour: 'blonde', hairStyle: 'ponytail' }],
  ['black woman with an afro', { gender: 'female', skin: 'deep', hairStyle: 'afro' }],
  ['asian businessman in a navy suit', { gender: 'male', skin: 'fair', garment: 'blazer', clothing: '#27375c' }],
  ['hispanic dad with a moustache', { gender: 'male', skin: 'tan', beard: 'moustache', age: '30s' }],
  ['redhead girl with curly hair', { gender: 'female', hairColour: 'red', hairStyle: 'curly', age: '20s' }],
  ['middle-aged man, bald, glasses', { gender: 'male', age: '50s', hairStyle: 'bald', glasses: true }],
  ['bearded guy in a green hoodie', { gender: 'male', beard: 'full', garment: 'hoodie', clothing: '#2e8b57' }],
  ['woman in her late 50s with a grey bob', { gender: 'female', age: '50s', hairColour: 'grey', hairStyle: 'bob' }],
  ['middle eastern man with stubble', { gender: 'male', skin: 'olive', beard: 'stubble' }],
  ['indian woman with long black hair', { gender: 'female', skin: 'brown', hairStyle: 'long', hairColour: 'black' }],
  ['young woman with long brown hair', { gender: 'female', age: '20s', hairStyle: 'long', hairColour: 'brown' }],
  ['woman with long, wavy brown hair', { gender: 'female', hairStyle: 'long', hairColour: 'brown' }],
  ['pale nordic woman with blond hair in a white shirt', { skin: 'light', hairColour: 'blonde', clothing: '#f4f4f2' }],
  ['clean-shaven man in his twenties', { gender: 'male', age: '20s', beard: 'none' }],
  ['senior lady wearing yellow', { gender: 'female', age: '60s+', clothing: '#f2c14e' }],
  [
    'fitness coach, woman, 28 years old, brunette bun',
    { gender: 'female', age: '20s', hairColour: 'brown', hairStyle: 'bun' },
  ],
  ['white male actor', { gender: 'male', skin: 'light' }],
  ['guy with black hair and a white t-shirt', { gender: 'male', hairColour: 'black', clothing: '#f4f4f2' }],
  [
    'woman in her 60s with short hair, no glasses',
    { gender: 'female', age: '60s+', hairStyle: 'short', glasses: false },
  ],
  ['a woman and her husband', { gender: 'female' }],
  ['Latina nurse with glasses', { gender: 'female', skin: 'tan', glasses: true }],
];

describe('character traits from a description', () => {
  it.each(CASES)('"%s"', (description, expected) => {
    for (const i of [0, 1, 2]) {
      const t = actorFromDescription(description, i).traits;
      expect(t).toMatchObject(expected);
    }
  });

  it('reads only what is said and leaves the rest to the seed', () => {
    expect(statedTraits('a person')).toEqual({
      gender: null,
      age: null,
      skin: null,
      hairColour: null,
      hairStyle: null,
      glasses: null,
      beard: null,
      garment: null,
      clothing: null,
    });
    const seen = new Set(Array.from({ length: 12 }, (_, i) => JSON.stringify(traitsFor(`seed-${i}`, 'a person'))));
    expect(seen.size).toBeGreaterThan(8);
  });

  it('keeps unstated traits plausible: grey with age, beards only on men, no ponytails on men', () => {
    for (let i = 0; i < 40; i++) {
      const old = traitsFor(`s${i}`, 'elderly person');
      expect(['grey', 'white']).toContain(old.hairColour);
      const woman = traitsFor(`s${i}`, 'a woman');
      expect(woman.beard).toBe('none');
      const man = traitsFor(`s${i}`, 'a man');
      expect(['long', 'bob', 'bun', 'ponytail']).not.toContain(man.hairStyle);
    }
  });

  it('draws catalogue actors as their captions say (gender and skin by race)', () => {
    const skins = {
      white: ['light', 'fair'],
      black: ['deep', 'brown'],
      asian: ['fair', 'light'],
      hispanic: ['tan', 'medium'],
      middle_eastern: ['olive', 'medium'],
    } as const;
    for (const race of ['white', 'black', 'asian', 'hispanic', 'middle_eastern'] as const) {
      for (const gender of ['male', 'female'] as const) {
        const spec = catalogueActorSpec({ id: '3', gender, race, background: 'studio' });
        expect(spec.traits.gender).toBe(gender);
        expect(skins[race]).toContain(spec.traits.skin);
        if (gender === 'male') expect(['long', 'bob', 'bun', 'ponytail']).not.toContain(spec.traits.hairStyle);
        else expect(spec.traits.beard).toBe('none');
      }
    }
  });

  it('describes each catalogue actor in words the images provider accepts, as drawn', () => {
    const all = ACTORS.map((a) => catalogueActorDescription(a));
    expect(new Set(all).size).toBe(ACTORS.length);
    for (const [i, a] of ACTORS.entries()) {
      const words = all[i]!;
      expect(words.startsWith(`${a.race.replace('_', ' ')} ${a.gender === 'male' ? 'man' : 'woman'} in `)).toBe(true);
      expect(words).toContain(describeTraits(catalogueActorSpec(a).traits));
      expect(() => assertInventedPerson(words)).not.toThrow();
    }
    expect(catalogueActorDescription(ACTORS[0]!)).toBe(catalogueActorDescription({ ...ACTORS[0]! }));
  });

  it('describes what is drawn', () => {
    const t = actorFromDescription('elderly grandmother with grey hair and glasses', 0).traits;
    expect(describeTraits(t)).toMatch(/^woman in her 60s\+, grey .*hair.*, glasses$/);
  });
});
