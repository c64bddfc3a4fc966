import { BOUNDS_EDITOR, SavedBounds } from '@hookreel/contracts';
import { describe, expect, it } from 'vitest';
import {
  type Box,
  boxFromAvatar,
  corners,
  handlePoint,
  hitTest,
  moveBox,
  resizeBox,
  rotateTowards,
  rotationHandlePoint,
  toSavedBounds,
} from './bounds-geometry';

const box: Box = { x: 100, y: 200, width: 200, height: 100, rotation: 0 };
const close = (a: { x: number; y: number }, b: { x: number; y: number }) => {
  expect(a.x).toBeCloseTo(b.x, 6);
  expect(a.y).toBeCloseTo(b.y, 6);
};

describe('corners', () => {
  it('are TL, TR, BR, BL for an unrotated box', () => {
    const [tl, tr, br, bl] = corners(box);
    close(tl, { x: 100, y: 200 });
    close(tr, { x: 300, y: 200 });
    close(br, { x: 300, y: 300 });
    close(bl, { x: 100, y: 300 });
  });
  it('rotate about the centre', () => {
    const [tl, tr, br, bl] = corners({ ...box, rotation: 90 });
    // centre (200, 250); a 90° clockwise turn maps local (-100,-50) to (50,-100).
    close(tl, { x: 250, y: 150 });
    close(tr, { x: 250, y: 350 });
    close(br, { x: 150, y: 350 });
    close(bl, { x: 150, y: 150 });
  });
});

describe('hitTest', () => {
  it('finds the rotation handle 30 above the top edge with radius 12', () => {
    const r = rotationHandlePoint(box);
    close(r, { x: 200, y: 200 - BOUNDS_EDITOR.rotationHandleOffset });
    expect(hitTest(box, { x: r.x + 11, y: r.y })).toEqual({ kind: 'rotate' });
    expect(hitTest(box, { x: r.x + 13, y: r.y })).toBeNull();
  });
  it('finds each of the 8 resize handles within radius 10', () => {
    for (const h of ['nw', 'ne', 'se', 'sw', 'n', 'e', 's', 'w'] as const) {
      const p = handlePoint(box, h);
      expect(hitTest(box, { x: p.x + 7, y: p.y + 7 })).toEqual({ kind: 'resize', handle: h });
    }
    expect(hitTest(box, { x: 100 - 11, y: 200 })).toBeNull();
  });
  it('moves from inside the box and misses outside', () => {
    expect(hitTest(box, { x: 200, y: 250 })).toEqual({ kind: 'move' });
    expect(hitTest(box, { x: 400, y: 250 })).toBeNull();
  });
  it('works on rotated boxes', () => {
    const rotated = { ...box, rotation: 90 };
    const p = handlePoint(rotated, 'nw');
    expect(hitTest(rotated, p)).toEqual({ kind: 'resize', handle: 'nw' });
    // (200, 330) is inside the rotated box (it is 100 wide, 200 tall now) but outside the unrotated one.
    expect(hitTest(rotated, { x: 200, y: 330 })).toEqual({ kind: 'move' });
  });
});

describe('resizeBox', () => {
  it('drags the se corner keeping the nw corner fixed', () => {
    const r = resizeBox(box, 'se', { x: 350, y: 400 });
    expect(r).toMatchObject({ x: 100, y: 200, width: 250, height: 200 });
  });
  it('drags the w edge only changing the width', () => {
    const r = resizeBox(box, 'w', { x: 50, y: 999 });
    expect(r.x).toBeCloseTo(50);
    expect(r.width).toBeCloseTo(250);
    expect(r.height).toBe(100);
  });
  it('applies only while both sides stay above 50', () => {
    expect(resizeBox(box, 'e', { x: 150, y: 250 })).toBe(box); // width would be 50
    expect(resizeBox(box, 's', { x: 200, y: 240 })).toBe(box); // height 40
    expect(resizeBox(box, 'e', { x: 151, y: 250 }).width).toBeCloseTo(51);
    expect(resizeBox(box, 'ne', { x: 500, y: 260 })).toBe(box); // height 40
  });
  it('keeps the opposite corner fixed on a rotated box', () => {
    const rotated = { ...box, rotation: 30 };
    const fixed = corners(rotated)[0];
    const r = resizeBox(
      rotated,
      'se',
      handlePoint({ ...rotated, width: 260, height: 140, x: rotated.x, y: rotated.y }, 'se'),
    );
    expect(r.rotation).toBe(30);
    close(corners(r)[0], fixed);
  });
});

describe('rotate and move', () => {
  it('points the top handle at the pointer', () => {
    expect(rotateTowards(box, { x: 200, y: 0 }).rotation).toBeCloseTo(0);
    expect(rotateTowards(box, { x: 400, y: 250 }).rotation).toBeCloseTo(90);
    expect(rotateTowards(box, { x: 0, y: 250 }).rotation).toBeCloseTo(-90);
    expect(Math.abs(rotateTowards(box, { x: 200, y: 500 }).rotation)).toBeCloseTo(180);
  });
  it('moves by a delta', () => {
    expect(moveBox(box, 5, -7)).toMatchObject({ x: 105, y: 193 });
  });
});

describe('toSavedBounds', () => {
  it('rounds to integers and adds the rotated corners, matching the contract', () => {
    const saved = toSavedBounds({ x: 100.4, y: 199.6, width: 200.2, height: 99.7, rotation: 45.4 });
    expect(saved).toMatchObject({ x: 100, y: 200, width: 200, height: 100, rotation: 45 });
    expect(SavedBounds.safeParse(saved).success).toBe(true);
    const edge = Math.hypot(saved.x2 - saved.x1, saved.y2 - saved.y1);
    expect(edge).toBeCloseTo(200, 1);
    expect(Math.hypot(saved.x4 - saved.x1, saved.y4 - saved.y1)).toBeCloseTo(100, 1);
  });
  it('defaults a box for avatars without bounds', () => {
    expect(boxFromAvatar({ x: null, y: null, width: null, height: null, rotation: 0 })).toMatchObject({
      width: 200,
      height: 200,
    });
  });
});
