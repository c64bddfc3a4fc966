import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALIGN_RATE, readSamples } from './align.ts';
import { localVoice } from './index.ts';
import { genderOfPitch, medianPitchHz } from './pitch.ts';
import { tempDirForTests } from '../util/temp-dir.fixture.ts';

/** A voiced-sounding tone: `hz` and its harmonics, fading in and out like syllables, with quiet gaps. */
function syllables(hz: number, seconds = 2, rate = ALIGN_RATE): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) {
    const t = i / rate;
    const envelope = Math.max(0, Math.sin(2 * Math.PI * 2.5 * t));
    let s = 0;
    for (let h = 1; h <= 5; h++) s += Math.sin(2 * Math.PI * hz * h * t) / h;
    out[i] = 0.3 * envelope * s;
  }
  return out;
}

describe('medianPitchHz', () => {
  it('finds the fundamental of voiced sound, not a harmonic', () => {
    expect(medianPitchHz(syllables(110), ALIGN_RATE)).toBeCloseTo(110, -1);
    expect(medianPitchHz(syllables(210), ALIGN_RATE)).toBeCloseTo(210, -1);
  });

  it('says nothing of silence or noise', () => {
    expect(medianPitchHz(new Float32Array(ALIGN_RATE), ALIGN_RATE)).toBeNull();
    let seed = 7;
    const noise = Float32Array.from({ length: ALIGN_RATE }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31 - 0.5;
    });
    expect(medianPitchHz(noise, ALIGN_RATE)).toBeNull();
    expect(medianPitchHz(new Float32Array(100), ALIGN_RATE)).toBeNull();
  });

  describe('on our own voices', () => {
    const tmp = tempDirForTests('hookreel-pitch-');

    it.each([
      ['flite:rms', 'male'],
      ['festival:kal_diphone', 'male'],
      ['flite:slt', 'female'],
      ['festival:cmu_us_slt_arctic_hts', 'female'],
    ] as const)('hears %s as %s', async (voiceId, gender) => {
      const take = await localVoice.synthesize(
        {
          text: 'My skin has never looked better. Grab yours today!',
          language: 'english',
          accent: 'american',
          gender,
          voiceId,
        },
        path.join(tmp.path, voiceId),
      );
      const hz = medianPitchHz(await readSamples(take.wavPath), ALIGN_RATE);
      expect(hz).not.toBeNull();
      expect(genderOfPitch(hz!)).toBe(gender);
    });
  });
});
