import { describe, expect, it } from 'vitest';
import { VISEMES } from '../actors/rig.ts';
import type { WordTiming } from '../types.ts';
import {
  BLINK_SEC,
  beatsOf,
  blinkTimes,
  boxAtTime,
  cameraAt,
  cameraShots,
  closeUpCentreY,
  closeUpZoom,
  mouthShapes,
  poseTimeline,
  PUSH_IN_ZOOM,
  visemesOfWord,
} from './timeline.ts';

const words = (text: string, start = 0.3, per = 0.32, gap = 0.04): WordTiming[] =>
  text
    .split(' ')
    .map((word, i) => ({ word, startSec: start + i * (per + gap), endSec: start + i * (per + gap) + per }));

describe('motion timeline', () => {
  it('gives each word its mouth shapes, all five visemes across a sentence', () => {
    expect(visemesOfWord('moon')).toEqual(['closed', 'round']);
    expect(visemesOfWord('five')).toEqual(['teeth', 'wide', 'teeth', 'wide']);
    expect(visemesOfWord('42')).toEqual(['open', 'wide']);
    const w = words('Stop scrolling, my face feels amazing now. Try it today!');
    const shapes = mouthShapes(w, 6);
    expect(new Set(shapes.map((s) => s.viseme))).toEqual(new Set(VISEMES));
    // Closed in the silences before, between and after words.
    const at = (t: number) => shapes.find((s) => t >= s.startSec && t < s.endSec)!.viseme;
    expect(at(0.1)).toBe('closed');
    expect(at(5.9)).toBe('closed');
    // Contiguous cover of the whole video.
    for (let i = 1; i < shapes.length; i++) expect(shapes[i]!.startSec).toBeCloseTo(shapes[i - 1]!.endSec, 6);
    expect(shapes[shapes.length - 1]!.endSec).toBe(6);
  });

  it('blinks every 2 to 6 seconds', () => {
    for (const seed of ['a', 'b', 'c', 'd']) {
      const b = blinkTimes(seed, 30);
      expect(b.length).toBeGreaterThanOrEqual(5);
      for (let i = 1; i < b.length; i++) {
        expect(b[i]! - b[i - 1]!).toBeGreaterThanOrEqual(2);
        expect(b[i]! - b[i - 1]!).toBeLessThanOrEqual(6);
      }
    }
  });

  it('sways, breathes, blinks and lifts the product on the hook, covering the whole video', () => {
    const w = words('Stop scrolling right now. This serum fixed my skin. Try it today!');
    const beats = beatsOf(w, 'Stop scrolling right now.');
    expect(beats.hookLastWord!.startSec).toBeCloseTo(w[3]!.startSec, 6);
    expect(beats.cta!.startSec).toBeCloseTo(w[9]!.startSec, 6);
    const segs = poseTimeline({ words: w, totalSec: 5, seed: 'x', beats, gesture: true });
    const total = segs.reduce((s, p) => s + p.durationSec, 0);
    expect(total).toBeCloseTo(5, 6);
    expect(new Set(segs.map((s) => s.pose.tilt)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(segs.map((s) => s.pose.breath)).size).toBeGreaterThanOrEqual(3);
    const blinks = segs.filter((s) => s.pose.blink);
    expect(blinks.length).toBeGreaterThan(0);
    expect(blinks.reduce((s, p) => s + p.durationSec, 0)).toBeLessThanOrEqual(BLINK_SEC * 3 + 0.001);
    const lifted = segs.filter((s) => s.pose.lift);
    expect(lifted[0]!.startSec).toBeLessThanOrEqual(beats.hookLastWord!.startSec);
    expect(poseTimeline({ words: w, totalSec: 5, seed: 'x', beats, gesture: false }).some((s) => s.pose.lift)).toBe(
      false,
    );
  });

  it('pushes in, punches in on the hook’s last word and closes up on the product for the CTA', () => {
    const w = words('Stop scrolling right now. This serum fixed my skin. Try it today!');
    const beats = beatsOf(w, null);
    const product = { x: 350, y: 620, w: 60, h: 160 };
    const shots = cameraShots({ totalSec: 5, beats, face: { cx: 288, cy: 400 }, product });
    const wide = boxAtTime(product, shots, 0.1, 720, 1280);
    const cta = boxAtTime(product, shots, 4.8, 720, 1280);
    expect(cta.w).toBeGreaterThan(wide.w * 1.3);
    // In the close-up the product is near the middle of the picture.
    expect(Math.abs(cta.x + cta.w / 2 - 360)).toBeLessThan(200);
    const punch = boxAtTime(product, shots, beats.hookLastWord!.startSec + 0.05, 720, 1280);
    expect(punch.w).toBeGreaterThan(wide.w * 1.1);
    const early = boxAtTime(product, shots, 0.5, 720, 1280);
    const later = boxAtTime(product, shots, beats.hookLastWord!.startSec - 0.1, 720, 1280);
    expect(later.w).toBeGreaterThan(early.w);
    // Between the punch-in and the close-up the camera cuts back to the whole frame and holds it.
    const afterPunch = shots.find((s) => s.startSec > beats.hookLastWord!.startSec && s.endSec <= beats.cta!.startSec);
    expect(afterPunch).toMatchObject({ zoomFrom: 1, zoomTo: 1 });
    expect(boxAtTime(product, shots, afterPunch!.startSec + 0.05, 720, 1280)).toEqual(
      boxAtTime(product, shots, 0, 720, 1280),
    );
  });

  it('closes up on the product for the CTA: the crop holds the whole product box, zoomed past the push-in', () => {
    const w = words('Stop scrolling right now. This serum fixed my skin. Try it today!');
    const beats = beatsOf(w, null);
    // Products held low at the right, in the middle, and tall: the close-up contains each and fills the frame.
    for (const product of [
      { x: 330, y: 565, w: 82, h: 221 },
      { x: 240, y: 560, w: 96, h: 150 },
      { x: 420, y: 820, w: 120, h: 200 },
    ]) {
      const shots = cameraShots({ totalSec: 5, beats, face: { cx: 288, cy: 390 }, product });
      const t = beats.cta!.startSec + 0.1;
      const cta = shots.find((s) => t >= s.startSec && t < s.endSec)!;
      const push = shots.find((s) => s.startSec === 0)!;
      expect(cta.zoomFrom).toBeGreaterThan(Math.max(push.zoomTo, PUSH_IN_ZOOM));
      expect(cta.zoomFrom).toBe(closeUpZoom(product));
      // The crop window (frame coordinates) contains the product's box.
      const cam = cameraAt(shots, t, 720, 1280);
      const k = 720 / 576;
      const crop = { x: cam.x / (k * cam.zoom), y: cam.y / (k * cam.zoom), w: 576 / cam.zoom, h: 1024 / cam.zoom };
      expect(crop.x).toBeLessThanOrEqual(product.x);
      expect(crop.y).toBeLessThanOrEqual(product.y);
      expect(crop.x + crop.w).toBeGreaterThanOrEqual(product.x + product.w);
      expect(crop.y + crop.h).toBeGreaterThanOrEqual(product.y + product.h);
      // On screen the product fills a good part of the picture.
      const seen = boxAtTime(product, shots, t, 720, 1280);
      expect(seen.h / 1280).toBeGreaterThan(0.3);
    }
  });
});

describe('the CTA close-up never cuts through the face', () => {
  const w = words('Stop scrolling right now. This serum fixed my skin. Try it today!');
  const beats = beatsOf(w, null);
  // The rig's face box with long hair (576x1024 frame): hair top 264, chin 520.
  const faceBox = { x: 160, y: 264, w: 256, h: 256 };
  /** The crop window of the close-up in frame coordinates. */
  const cropOf = (product: { x: number; y: number; w: number; h: number }) => {
    const shots = cameraShots({ totalSec: 5, beats, face: { cx: 288, cy: 392 }, product, faceBox });
    const cam = cameraAt(shots, beats.cta!.startSec + 0.1, 720, 1280);
    const k = 720 / 576;
    return { x: cam.x / (k * cam.zoom), y: cam.y / (k * cam.zoom), w: 576 / cam.zoom, h: 1024 / cam.zoom };
  };

  it('frames a product held at the chest from just under the chin, the whole product in', () => {
    // The bottle of the product-in-hand e2e: centred, its top edge would run across the nose (y ≈ 426).
    for (const product of [
      { x: 300, y: 574, w: 70, h: 170 },
      { x: 330, y: 565, w: 82, h: 221 },
      { x: 240, y: 560, w: 96, h: 150 },
    ]) {
      const crop = cropOf(product);
      expect(crop.y).toBeGreaterThanOrEqual(faceBox.y + faceBox.h - 0.5);
      expect(crop.y).toBeLessThanOrEqual(product.y);
      expect(crop.y + crop.h).toBeGreaterThanOrEqual(product.y + product.h);
      expect(crop.x).toBeLessThanOrEqual(product.x);
      expect(crop.x + crop.w).toBeGreaterThanOrEqual(product.x + product.w);
    }
  });

  it('stays centred on the product when it is held up by the face, low in the frame, or clear of the face', () => {
    const byFace = { x: 380, y: 300, w: 90, h: 200 };
    expect(closeUpCentreY(byFace, closeUpZoom(byFace), faceBox)).toBe(byFace.y + byFace.h / 2);
    // Low enough that the centred crop starts below the chin already.
    const low = { x: 420, y: 820, w: 120, h: 200 };
    expect(closeUpCentreY(low, closeUpZoom(low), faceBox)).toBe(low.y + low.h / 2);
    expect(cropOf(low).y).toBeGreaterThanOrEqual(faceBox.y + faceBox.h);
    // Without a face box (photos) nothing moves.
    const chest = { x: 300, y: 574, w: 70, h: 170 };
    expect(closeUpCentreY(chest, closeUpZoom(chest), undefined)).toBe(chest.y + chest.h / 2);
  });
});

describe('the lift gesture and the CTA close-up', () => {
  it('brings the product down on the cut to the close-up, so the close-up shows it where the resting hand holds it', () => {
    // A two-sentence script: the CTA starts 0.36 s after the hook's last word, inside the 1.4 s lift.
    const w = words('Meet my new favourite. It keeps my skin fresh, try it today!');
    const beats = beatsOf(w, null);
    expect(beats.cta!.startSec - beats.hookLastWord!.startSec).toBeLessThan(1.4);
    const segs = poseTimeline({ words: w, totalSec: 6, seed: 'lift', beats, gesture: true });
    const lifted = segs.filter((s) => s.pose.lift);
    expect(lifted.length).toBeGreaterThan(0);
    const liftEnd = Math.max(...lifted.map((s) => s.startSec + s.durationSec));
    expect(liftEnd).toBeCloseTo(beats.cta!.startSec, 6);
    // With the CTA later than the hold, the lift keeps its full 1.4 s.
    const long = words('Meet my new favourite. It keeps my skin so fresh and soft all day. Try it today!');
    const b2 = beatsOf(long, null);
    const l2 = poseTimeline({ words: long, totalSec: 8, seed: 'lift', beats: b2, gesture: true }).filter(
      (s) => s.pose.lift,
    );
    const span = Math.max(...l2.map((s) => s.startSec + s.durationSec)) - Math.min(...l2.map((s) => s.startSec));
    expect(span).toBeCloseTo(1.4, 6);
  });
});
