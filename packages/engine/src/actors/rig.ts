import type { ActorTraits, HairColour, SkinTone } from './traits.ts';

/**
 * The character rig: one parametric SVG figure (hair, head, neck, shoulders, arms and hands drawn as one body in
 * one flat illustrated style), in the 576x1024 frame every placement is expressed in. Our own drawing (no third-
 * party artwork), so it carries the project's licence.
 *
 * A held product sits between two layers of the same figure: `back` (everything, including the wrist and the
 * thumb behind the product) and `front` (the back of the hand and the fingers wrapped over the product), so the
 * fingers are in front of it.
 */

export const VISEMES = ['closed', 'open', 'wide', 'round', 'teeth'] as const;
export type Viseme = (typeof VISEMES)[number];

/** One drawable state of the rig. */
export interface RigPose {
  viseme: Viseme;
  blink: boolean;
  /** Head tilt, degrees (positive = clockwise). */
  tilt: number;
  /** Chest rise in frame px (breathing): the body moves up by this much. */
  breath: number;
  /** The product lifted toward the camera (gesture). */
  lift: boolean;
}

export const REST_POSE: RigPose = { viseme: 'closed', blink: false, tilt: 0, breath: 0, lift: false };

/** A box in frame coordinates (576x1024), the same shape as the layout's boxes. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The product held: its centre, size (after scale) and rotation, as placed by the user. */
export interface HeldProduct {
  cx: number;
  cy: number;
  width: number;
  height: number;
  rotation: number;
}

const W = 576;
const H = 1024;
/** Head centre and the neck joint the head tilts about. */
const HEAD = { x: 288, y: 410, rx: 86, ry: 106 } as const;
const NECK_JOINT = { x: 288, y: 550 } as const;
const SHOULDER_L = { x: 150, y: 660 } as const;
const SHOULDER_R = { x: 426, y: 660 } as const;
const UPPER_ARM = 178;
const FOREARM = 168;

const SKIN: Record<SkinTone, string> = {
  light: '#f7d9c6',
  fair: '#f1c8a3',
  medium: '#e0ab7f',
  olive: '#c99a6e',
  tan: '#b27a4f',
  brown: '#8a5738',
  deep: '#5c3823',
};
const HAIR: Record<HairColour, string> = {
  black: '#231c1f',
  'dark-brown': '#3d2920',
  brown: '#6b4530',
  auburn: '#8a3d22',
  red: '#b8552b',
  blonde: '#d8b46e',
  grey: '#a9a8aa',
  white: '#e6e3de',
};

/** Mix two '#rrggbb' colours; t=0 gives a, t=1 gives b. */
export function mix(a: string, b: string, t: number): string {
  const pa = [1, 3, 5].map((i) => parseInt(a.slice(i, i + 2), 16));
  const pb = [1, 3, 5].map((i) => parseInt(b.slice(i, i + 2), 16));
  return `#${pa
    .map((v, i) =>
      Math.round(v + (pb[i]! - v) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}
const shade = (c: string, t: number) => mix(c, '#000000', t);
const tint = (c: string, t: number) => mix(c, '#ffffff', t);

export interface RigColours {
  skin: string;
  skinShade: string;
  hair: string;
  hairShade: string;
  lips: string;
  cloth: string;
  clothShade: string;
  iris: string;
}

export function coloursOf(t: ActorTraits, seedByte = 0): RigColours {
  const skin = SKIN[t.skin];
  // Hair greys with age unless it is already grey or white.
  let hair = HAIR[t.hairColour];
  if (t.age === '50s' && t.hairColour !== 'grey' && t.hairColour !== 'white') hair = mix(hair, HAIR.grey, 0.35);
  if (t.age === '60s+' && t.hairColour !== 'grey' && t.hairColour !== 'white') hair = mix(hair, HAIR.grey, 0.6);
  const dark = t.skin === 'brown' || t.skin === 'deep' || t.skin === 'tan';
  return {
    skin,
    skinShade: shade(skin, 0.14),
    hair,
    hairShade: shade(hair, 0.25),
    lips: mix(skin, dark ? '#5a2a2a' : '#c0545a', dark ? 0.35 : 0.45),
    cloth: t.clothing,
    clothShade: shade(t.clothing, 0.18),
    iris: dark || t.skin === 'olive' ? '#3b2417' : ['#3b2417', '#4a6b8a', '#5b7a3c', '#6b4a2a'][seedByte % 4]!,
  };
}

const f = (n: number) => Math.round(n * 10) / 10;

/** Rotates (x, y) about (cx, cy) by deg. */
function rot(x: number, y: number, cx: number, cy: number, deg: number): [number, number] {
  const r = (deg * Math.PI) / 180;
  const dx = x - cx;
  const dy = y - cy;
  return [cx + dx * Math.cos(r) - dy * Math.sin(r), cy + dx * Math.sin(r) + dy * Math.cos(r)];
}

/**
 * Elbow for a shoulder and a wrist target. A hand near the chest keeps the elbow down by the side and the
 * forearm comes toward the camera (drawn foreshortened); a far target straightens the arm (two-bone solve,
 * elbow outward and down).
 */
function elbowFor(s: { x: number; y: number }, t: { x: number; y: number }, side: 1 | -1): [number, number] {
  const relaxed: [number, number] = [s.x + side * 64, s.y + 150];
  const dx = t.x - s.x;
  const dy = t.y - s.y;
  const dist = Math.hypot(dx, dy);
  if (t.y > s.y + 40 && dist < 250 && Math.hypot(t.x - relaxed[0], t.y - relaxed[1]) < FOREARM * 1.1) return relaxed;
  const reach = UPPER_ARM + FOREARM;
  const d = Math.max(1, Math.min(dist, reach * 0.999));
  const a = Math.acos(Math.max(-1, Math.min(1, (UPPER_ARM ** 2 + d ** 2 - FOREARM ** 2) / (2 * UPPER_ARM * d))));
  const base = Math.atan2(dy, dx);
  const c1: [number, number] = [s.x + UPPER_ARM * Math.cos(base + a), s.y + UPPER_ARM * Math.sin(base + a)];
  const c2: [number, number] = [s.x + UPPER_ARM * Math.cos(base - a), s.y + UPPER_ARM * Math.sin(base - a)];
  const score = (c: [number, number]) => c[1] * 0.5 + c[0] * side;
  return score(c1) >= score(c2) ? c1 : c2;
}

export interface HandGeometry {
  /** Which side the holding arm is on, as seen by the viewer (1 = right). */
  side: 1 | -1;
  /** Wrist point the arm reaches to. */
  wrist: [number, number];
  /** Grip centre on the product. */
  grip: [number, number];
  /** Grip rotation (degrees) = product rotation. */
  angle: number;
  /** The product's half width/height (after scale). */
  hw: number;
  hh: number;
  /** Finger length across the product's face. */
  reach: number;
  /** Finger pitch (thickness of one finger); the four fingers span 4 * unit below and above the grip. */
  unit: number;
}

/**
 * Where the fingers start, as a share of the product's height from its top: the hand holds the bottom of the
 * product so the label (usually across the middle) stays readable.
 */
export const GRIP_TOP = 0.67;

/** Where the hand goes for a held product (or null: both arms rest). */
export function handFor(p: HeldProduct | null, pose: RigPose): HandGeometry | null {
  if (!p) return null;
  const { cx, cy, width, height, rotation } = liftedProduct(p, pose);
  const side: 1 | -1 = cx >= W / 2 ? 1 : -1;
  const hw = width / 2;
  const hh = height / 2;
  // Four fingers fill about the bottom 30% of the product; a small product keeps a hand that still reads as
  // one (the lowest finger then wraps under its base rather than climbing onto the label).
  const unit = Math.max(11, Math.min(16, (height * 0.3) / 4));
  const gripY = -hh + height * GRIP_TOP + 2 * unit;
  const [gx, gy] = rot(cx, cy + gripY, cx, cy, rotation);
  const [wx, wy] = rot(cx + side * (hw + 26), cy + gripY + unit * 0.5, cx, cy, rotation);
  return { side, wrist: [wx, wy], grip: [gx, gy], angle: rotation, hw, hh, reach: Math.min(hw * 1.15, 70), unit };
}

/** The product where the pose shows it: the lift gesture brings it up and closer (larger); breathing moves it. */
export function liftedProduct(p: HeldProduct, pose: RigPose): HeldProduct {
  const k = pose.lift ? 1.12 : 1;
  return {
    cx: p.cx,
    cy: p.cy - (pose.lift ? 46 : 0) - pose.breath,
    width: p.width * k,
    height: p.height * k,
    rotation: p.rotation + (pose.lift ? -3 : 0),
  };
}

function arm(
  shoulder: { x: number; y: number },
  wrist: [number, number],
  side: 1 | -1,
  c: RigColours,
  t: ActorTraits,
  breath: number,
): string {
  const s = { x: shoulder.x, y: shoulder.y - breath };
  const [ex, ey] = elbowFor(s, { x: wrist[0], y: wrist[1] }, side);
  const seg = (d: string, colour: string, width: number) =>
    `<path d="${d}" stroke="${shade(colour, 0.22)}" stroke-width="${width + 5}" stroke-linecap="round" stroke-linejoin="round" fill="none"/>` +
    `<path d="${d}" stroke="${colour}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`;
  const upper = `M ${f(s.x)} ${f(s.y)} L ${f(ex)} ${f(ey)}`;
  // The forearm stops short of the wrist: the hand (or the cuff) covers the joint.
  const fx = wrist[0] + (ex - wrist[0]) * 0.1;
  const fy = wrist[1] + (ey - wrist[1]) * 0.1;
  const fore = `M ${f(ex)} ${f(ey)} L ${f(fx)} ${f(fy)}`;
  if (t.garment === 'tee') {
    // Short sleeve over the top of the upper arm; skin below.
    const mx = s.x + (ex - s.x) * 0.55;
    const my = s.y + (ey - s.y) * 0.55;
    return (
      seg(`M ${f(s.x)} ${f(s.y)} L ${f(ex)} ${f(ey)} L ${f(wrist[0])} ${f(wrist[1])}`, c.skin, 40) +
      seg(`M ${f(s.x)} ${f(s.y)} L ${f(mx)} ${f(my)}`, c.cloth, 58) +
      seg(`M ${f(ex)} ${f(ey)} L ${f(wrist[0])} ${f(wrist[1])}`, c.skin, 40)
    );
  }
  return seg(upper, c.cloth, 52) + seg(fore, c.cloth, 48);
}

/** A relaxed hand at the end of a resting arm (rounded mitten with a thumb). */
function restingHand(w: [number, number], side: 1 | -1, c: RigColours): string {
  return `<g transform="translate(${f(w[0])} ${f(w[1])}) rotate(${side * -8})">
    <rect x="-23" y="-6" width="46" height="62" rx="22" fill="${c.skin}"/>
    <ellipse cx="${side * -20}" cy="14" rx="10" ry="19" fill="${c.skin}" transform="rotate(${side * 18} ${side * -20} 14)"/>
    <path d="M -10 40 L -10 54 M 2 42 L 2 56 M 13 40 L 13 52" stroke="${c.skinShade}" stroke-width="2.5" stroke-linecap="round"/></g>`;
}

function torso(c: RigColours, t: ActorTraits, breath: number): string {
  const b = breath;
  const shoulders = t.gender === 'male' ? 0 : 14;
  const l = 120 + shoulders;
  const r = 456 - shoulders;
  const body = `M ${l - 56} ${H} C ${l - 54} ${820 - b}, ${l - 34} ${670 - b}, ${l + 12} ${630 - b}
    Q 288 ${586 - b} ${r - 12} ${630 - b} C ${r + 34} ${670 - b}, ${r + 54} ${820 - b}, ${r + 56} ${H} Z`;
  let neckline = '';
  const ny = 604 - b;
  if (t.garment === 'blazer') {
    neckline = `<path d="M 238 ${ny} L 288 ${ny + 120} L 338 ${ny} Z" fill="${tint(c.cloth, 0.85)}"/>
      <path d="M 232 ${ny - 2} L 288 ${ny + 124} L 262 ${ny + 190} L 214 ${ny + 40} Z" fill="${c.clothShade}"/>
      <path d="M 344 ${ny - 2} L 288 ${ny + 124} L 314 ${ny + 190} L 362 ${ny + 40} Z" fill="${c.clothShade}"/>
      <circle cx="288" cy="${ny + 230}" r="6" fill="${shade(c.cloth, 0.4)}"/>`;
  } else if (t.garment === 'hoodie') {
    neckline = `<path d="M 206 ${ny + 6} Q 288 ${ny + 70} 370 ${ny + 6} Q 352 ${ny + 40} 288 ${ny + 50} Q 224 ${ny + 40} 206 ${ny + 6} Z" fill="${c.clothShade}"/>
      <path d="M 268 ${ny + 46} L 262 ${ny + 150} M 308 ${ny + 46} L 314 ${ny + 150}" stroke="${tint(c.cloth, 0.7)}" stroke-width="5" stroke-linecap="round"/>`;
  } else if (t.garment === 'sweater') {
    neckline = `<path d="M 236 ${ny - 4} Q 288 ${ny + 40} 340 ${ny - 4}" stroke="${c.clothShade}" stroke-width="14" fill="none" stroke-linecap="round"/>`;
  } else {
    neckline = `<path d="M 240 ${ny - 4} Q 288 ${ny + 36} 336 ${ny - 4}" stroke="${c.clothShade}" stroke-width="6" fill="none" stroke-linecap="round"/>`;
  }
  return `<path d="${body}" fill="${c.cloth}"/>
    <path d="M ${l - 56} ${H} C ${l - 54} ${820 - b}, ${l - 34} ${670 - b}, ${l + 12} ${630 - b} L ${l + 40} ${H} Z" fill="${c.clothShade}" opacity="0.45"/>${neckline}`;
}

function neck(c: RigColours, breath: number, garment: ActorTraits['garment']): string {
  const b = breath;
  // The neck runs from inside the head down under the neckline, so head and body are one shape.
  const bottom = garment === 'blazer' ? 660 : 620;
  return `<path d="M 249 ${470 - b} L 249 ${640 - b} Q 288 ${bottom + 30 - b} 327 ${640 - b} L 327 ${470 - b} Z" fill="${c.skin}"/>
    <path d="M 249 ${514 - b} Q 288 ${552 - b} 327 ${514 - b} L 327 ${548 - b} Q 288 ${572 - b} 249 ${548 - b} Z" fill="${c.skinShade}" opacity="0.7"/>`;
}

function hairBack(c: RigColours, t: ActorTraits): string {
  const { x, y, rx } = HEAD;
  switch (t.hairStyle) {
    case 'long':
      return `<path d="M ${x} ${y - HEAD.ry - 22} C ${x - rx - 30} ${y - HEAD.ry - 20}, ${x - rx - 36} ${y - 20}, ${x - rx - 30} ${y + 80}
        C ${x - rx - 30} ${y + 180}, ${x - rx - 20} ${y + 240}, ${x - rx + 4} ${y + 262} L ${x + rx - 4} ${y + 262}
        C ${x + rx + 20} ${y + 240}, ${x + rx + 30} ${y + 180}, ${x + rx + 30} ${y + 80} C ${x + rx + 36} ${y - 20}, ${x + rx + 30} ${y - HEAD.ry - 20}, ${x} ${y - HEAD.ry - 22} Z" fill="${c.hairShade}"/>`;
    case 'curly':
      return Array.from({ length: 9 }, (_, i) => {
        const a = Math.PI * (0.05 + (i / 8) * 0.9);
        return `<circle cx="${f(x - Math.cos(a) * (rx + 18))}" cy="${f(y + 40 + Math.sin(a) * 70)}" r="34" fill="${c.hairShade}"/>`;
      }).join('');
    case 'afro':
      return `<ellipse cx="${x}" cy="${y - 30}" rx="${rx + 62}" ry="${HEAD.ry + 46}" fill="${c.hair}"/>`;
    case 'bob':
      return `<path d="M ${x} ${y - HEAD.ry - 20} C ${x - rx - 28} ${y - HEAD.ry - 16}, ${x - rx - 30} ${y - 20}, ${x - rx - 26} ${y + 40}
        C ${x - rx - 24} ${y + 90}, ${x - rx - 14} ${y + 110}, ${x - rx + 8} ${y + 120} L ${x + rx - 8} ${y + 120}
        C ${x + rx + 14} ${y + 110}, ${x + rx + 24} ${y + 90}, ${x + rx + 26} ${y + 40} C ${x + rx + 30} ${y - 20}, ${x + rx + 28} ${y - HEAD.ry - 16}, ${x} ${y - HEAD.ry - 20} Z" fill="${c.hairShade}"/>`;
    case 'ponytail':
      return `<path d="M ${x + rx - 10} ${y - 40} C ${x + rx + 60} ${y - 20}, ${x + rx + 50} ${y + 120}, ${x + rx + 20} ${y + 190}
        C ${x + rx + 10} ${y + 120}, ${x + rx} ${y + 40}, ${x + rx - 30} ${y - 10} Z" fill="${c.hairShade}"/>`;
    case 'bun':
      return `<circle cx="${x}" cy="${y - HEAD.ry - 24}" r="42" fill="${c.hair}"/>`;
    default:
      return '';
  }
}

/**
 * Long hair falls in front of the shoulders onto the chest. Behind the head alone it would end where the collar
 * begins and read as a shoulder-length bob, so "long brown hair" would be drawn short. The strands sit outside
 * the face and the neck and move with the head.
 */
function hairOverShoulders(c: RigColours, t: ActorTraits): string {
  if (t.hairStyle !== 'long') return '';
  const { x, y, rx } = HEAD;
  const strand = (s: 1 | -1) => {
    const px = (dx: number) => f(x + s * dx);
    return `<path d="M ${px(-rx + 10)} ${y - 60} C ${px(-rx - 34)} ${y - 30}, ${px(-rx - 46)} ${y + 140}, ${px(-rx - 34)} ${y + 240}
      C ${px(-rx - 28)} ${y + 290}, ${px(-rx - 18)} ${y + 320}, ${px(-rx - 6)} ${y + 350}
      Q ${px(-rx + 18)} ${y + 280} ${px(-rx + 30)} ${y + 190} C ${px(-rx + 36)} ${y + 130}, ${px(-rx + 14)} ${y + 40}, ${px(-rx + 10)} ${y - 60} Z" fill="${c.hair}"/>
      <path d="M ${px(-rx - 12)} ${y + 120} C ${px(-rx - 16)} ${y + 200}, ${px(-rx - 8)} ${y + 260}, ${px(-rx + 2)} ${y + 300}" stroke="${c.hairShade}" stroke-width="4" fill="none" stroke-linecap="round"/>`;
  };
  return strand(-1) + strand(1);
}

function hairFront(c: RigColours, t: ActorTraits): string {
  const { x, y, rx, ry } = HEAD;
  const top = y - ry;
  switch (t.hairStyle) {
    case 'bald':
      return `<path d="M ${x - rx - 2} ${y - 6} Q ${x - rx + 4} ${y - 40} ${x - rx + 16} ${y - 44} L ${x - rx + 12} ${y + 6} Z" fill="${c.hair}" opacity="0.9"/>
        <path d="M ${x + rx + 2} ${y - 6} Q ${x + rx - 4} ${y - 40} ${x + rx - 16} ${y - 44} L ${x + rx - 12} ${y + 6} Z" fill="${c.hair}" opacity="0.9"/>`;
    case 'buzz':
      return `<path d="M ${x - rx} ${y - 18} C ${x - rx} ${top - 36}, ${x + rx} ${top - 36}, ${x + rx} ${y - 18} C ${x + rx - 20} ${top + 28}, ${x - rx + 20} ${top + 28}, ${x - rx} ${y - 18} Z" fill="${c.hair}" opacity="0.85"/>`;
    case 'side-part':
      return `<path d="M ${x - rx - 6} ${y + 4} C ${x - rx - 16} ${top - 50}, ${x + rx + 16} ${top - 56}, ${x + rx + 6} ${y + 4}
        C ${x + rx - 4} ${y - 50}, ${x + 20} ${top + 50}, ${x - 34} ${top + 40} C ${x - 60} ${top + 62}, ${x - rx + 4} ${y - 50}, ${x - rx - 6} ${y + 4} Z" fill="${c.hair}"/>
        <path d="M ${x - 34} ${top + 38} C ${x + 10} ${top + 14}, ${x + 60} ${top + 10}, ${x + rx - 6} ${y - 50}" stroke="${c.hairShade}" stroke-width="4" fill="none"/>`;
    case 'short':
      return `<path d="M ${x - rx - 6} ${y + 2} C ${x - rx - 14} ${top - 50}, ${x + rx + 14} ${top - 50}, ${x + rx + 6} ${y + 2}
        C ${x + rx - 6} ${y - 40}, ${x + 40} ${top + 54}, ${x} ${top + 48} C ${x - 40} ${top + 54}, ${x - rx + 6} ${y - 40}, ${x - rx - 6} ${y + 2} Z" fill="${c.hair}"/>`;
    case 'curly':
    case 'afro':
      return Array.from({ length: 7 }, (_, i) => {
        const a = Math.PI * (1.1 + (i / 6) * 0.8);
        const r = t.hairStyle === 'afro' ? 28 : 30;
        return `<circle cx="${f(x + Math.cos(a) * (rx - 6))}" cy="${f(y - 26 + Math.sin(a) * (ry - 8))}" r="${r}" fill="${c.hair}"/>`;
      }).join('');
    default:
      // Long, bob, bun, ponytail: a centre-parted crown with side fringe framing the face.
      return `<path d="M ${x - rx - 8} ${y + 30} C ${x - rx - 18} ${top - 58}, ${x + rx + 18} ${top - 58}, ${x + rx + 8} ${y + 30}
        C ${x + rx - 4} ${y - 30}, ${x + 30} ${top + 18}, ${x + 4} ${top + 26} C ${x - 30} ${top + 22}, ${x - rx + 2} ${y - 30}, ${x - rx - 8} ${y + 30} Z" fill="${c.hair}"/>
        <path d="M ${x + 4} ${top + 24} C ${x + 30} ${top + 10}, ${x + 60} ${top + 20}, ${x + rx - 2} ${y - 24}" stroke="${c.hairShade}" stroke-width="3" fill="none" opacity="0.7"/>`;
  }
}

function eyes(c: RigColours, pose: RigPose): string {
  const { x, y } = HEAD;
  const ey = y + 6;
  const one = (cx: number) =>
    pose.blink
      ? `<path d="M ${cx - 15} ${ey} Q ${cx} ${ey + 8} ${cx + 15} ${ey}" stroke="#2a1d1a" stroke-width="3.5" fill="none" stroke-linecap="round"/>`
      : `<path d="M ${cx - 16} ${ey} Q ${cx} ${ey - 15} ${cx + 16} ${ey} Q ${cx} ${ey + 11} ${cx - 16} ${ey} Z" fill="#fbfaf7"/>
        <circle cx="${cx}" cy="${ey - 1}" r="8.5" fill="${c.iris}"/><circle cx="${cx}" cy="${ey - 1}" r="4" fill="#141012"/>
        <circle cx="${cx + 3}" cy="${ey - 4}" r="2.2" fill="#ffffff"/>
        <path d="M ${cx - 17} ${ey} Q ${cx} ${ey - 16} ${cx + 17} ${ey}" stroke="#2a1d1a" stroke-width="3.5" fill="none" stroke-linecap="round"/>`;
  return one(x - 34) + one(x + 34);
}

function brows(c: RigColours, t: ActorTraits): string {
  const { x, y } = HEAD;
  const by = y - 24;
  const w = t.gender === 'male' ? 7 : 5;
  const col = t.hairStyle === 'bald' ? c.hairShade : c.hairShade;
  return `<path d="M ${x - 52} ${by + 4} Q ${x - 36} ${by - 8} ${x - 18} ${by}" stroke="${col}" stroke-width="${w}" fill="none" stroke-linecap="round"/>
    <path d="M ${x + 18} ${by} Q ${x + 36} ${by - 8} ${x + 52} ${by + 4}" stroke="${col}" stroke-width="${w}" fill="none" stroke-linecap="round"/>`;
}

/** Mouth shapes; all centred on the mouth point so the mouth box holds every viseme. */
function mouth(c: RigColours, v: Viseme): string {
  const mx = HEAD.x;
  const my = HEAD.y + 62;
  const dark = '#4a1f24';
  switch (v) {
    case 'open':
      return `<path d="M ${mx - 20} ${my - 4} Q ${mx} ${my - 9} ${mx + 20} ${my - 4} Q ${mx + 18} ${my + 22} ${mx} ${my + 24} Q ${mx - 18} ${my + 22} ${mx - 20} ${my - 4} Z" fill="${dark}"/>
        <path d="M ${mx - 16} ${my - 4} Q ${mx} ${my - 7} ${mx + 16} ${my - 4} L ${mx + 14} ${my + 2} Q ${mx} ${my} ${mx - 14} ${my + 2} Z" fill="#ffffff"/>
        <ellipse cx="${mx}" cy="${my + 17}" rx="11" ry="6" fill="#d46a74"/>
        <path d="M ${mx - 20} ${my - 4} Q ${mx} ${my - 10} ${mx + 20} ${my - 4}" stroke="${c.lips}" stroke-width="4" fill="none" stroke-linecap="round"/>
        <path d="M ${mx - 16} ${my + 20} Q ${mx} ${my + 28} ${mx + 16} ${my + 20}" stroke="${c.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
    case 'wide':
      return `<path d="M ${mx - 26} ${my - 2} Q ${mx} ${my - 6} ${mx + 26} ${my - 2} Q ${mx} ${my + 16} ${mx - 26} ${my - 2} Z" fill="${dark}"/>
        <path d="M ${mx - 22} ${my - 2} Q ${mx} ${my - 5} ${mx + 22} ${my - 2} L ${mx + 18} ${my + 3} Q ${mx} ${my + 4} ${mx - 18} ${my + 3} Z" fill="#ffffff"/>
        <path d="M ${mx - 26} ${my - 2} Q ${mx} ${my - 8} ${mx + 26} ${my - 2}" stroke="${c.lips}" stroke-width="4" fill="none" stroke-linecap="round"/>
        <path d="M ${mx - 22} ${my + 6} Q ${mx} ${my + 16} ${mx + 22} ${my + 6}" stroke="${c.lips}" stroke-width="4.5" fill="none" stroke-linecap="round"/>`;
    case 'round':
      return `<ellipse cx="${mx}" cy="${my + 6}" rx="11" ry="13" fill="${dark}"/>
        <ellipse cx="${mx}" cy="${my + 6}" rx="12" ry="14" stroke="${c.lips}" stroke-width="5.5" fill="none"/>`;
    case 'teeth':
      return `<path d="M ${mx - 20} ${my} Q ${mx} ${my - 5} ${mx + 20} ${my} Q ${mx} ${my + 9} ${mx - 20} ${my} Z" fill="#ffffff"/>
        <path d="M ${mx - 12} ${my + 4} L ${mx + 12} ${my + 4}" stroke="#d9d4cf" stroke-width="1.5"/>
        <path d="M ${mx - 21} ${my} Q ${mx} ${my - 7} ${mx + 21} ${my}" stroke="${c.lips}" stroke-width="4" fill="none" stroke-linecap="round"/>
        <path d="M ${mx - 17} ${my + 7} Q ${mx} ${my + 13} ${mx + 17} ${my + 7}" stroke="${c.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>`;
    default:
      return `<path d="M ${mx - 20} ${my + 2} Q ${mx} ${my + 12} ${mx + 20} ${my + 2}" stroke="${c.lips}" stroke-width="5" fill="none" stroke-linecap="round"/>
        <path d="M ${mx - 10} ${my + 12} Q ${mx} ${my + 15} ${mx + 10} ${my + 12}" stroke="${c.skinShade}" stroke-width="3" fill="none" stroke-linecap="round"/>`;
  }
}

/** Face lines by age: forehead, crow's feet, smile folds, under-eye lines. */
function ageLines(c: RigColours, t: ActorTraits): string {
  const { x, y } = HEAD;
  const line = (d: string, o = 0.55) =>
    `<path d="${d}" stroke="${shade(c.skin, 0.32)}" stroke-width="2.4" fill="none" stroke-linecap="round" opacity="${o}"/>`;
  const out: string[] = [];
  const rank = { '20s': 0, '30s': 1, '40s': 2, '50s': 3, '60s+': 4 }[t.age];
  if (rank >= 2) out.push(line(`M ${x - 30} ${y - 56} Q ${x} ${y - 62} ${x + 30} ${y - 56}`, 0.4));
  if (rank >= 3) {
    out.push(line(`M ${x - 40} ${y + 36} Q ${x - 48} ${y + 62} ${x - 34} ${y + 80}`));
    out.push(line(`M ${x + 40} ${y + 36} Q ${x + 48} ${y + 62} ${x + 34} ${y + 80}`));
    out.push(line(`M ${x - 58} ${y + 2} L ${x - 66} ${y - 2} M ${x - 58} ${y + 8} L ${x - 66} ${y + 10}`));
    out.push(line(`M ${x + 58} ${y + 2} L ${x + 66} ${y - 2} M ${x + 58} ${y + 8} L ${x + 66} ${y + 10}`));
  }
  if (rank >= 4) {
    out.push(line(`M ${x - 36} ${y - 68} Q ${x} ${y - 74} ${x + 36} ${y - 68}`, 0.45));
    out.push(line(`M ${x - 46} ${y + 20} Q ${x - 34} ${y + 26} ${x - 22} ${y + 20}`, 0.45));
    out.push(line(`M ${x + 22} ${y + 20} Q ${x + 34} ${y + 26} ${x + 46} ${y + 20}`, 0.45));
    out.push(line(`M ${x - 30} ${y + 92} Q ${x - 22} ${y + 98} ${x - 12} ${y + 96}`, 0.4));
    out.push(line(`M ${x + 30} ${y + 92} Q ${x + 22} ${y + 98} ${x + 12} ${y + 96}`, 0.4));
  }
  return out.join('');
}

function beard(c: RigColours, t: ActorTraits): string {
  const { x, y, rx, ry } = HEAD;
  const my = y + 62;
  switch (t.beard) {
    case 'full':
      return `<path d="M ${x - rx + 2} ${y + 4} C ${x - rx + 4} ${y + 80}, ${x - 40} ${y + ry + 22}, ${x} ${y + ry + 24}
        C ${x + 40} ${y + ry + 22}, ${x + rx - 4} ${y + 80}, ${x + rx - 2} ${y + 4}
        C ${x + rx - 16} ${y + 50}, ${x + 30} ${my - 16}, ${x} ${my - 14} C ${x - 30} ${my - 16}, ${x - rx + 16} ${y + 50}, ${x - rx + 2} ${y + 4} Z" fill="${c.hair}"/>
        <ellipse cx="${x}" cy="${my + 8}" rx="24" ry="17" fill="${c.skin}" opacity="0.0"/>`;
    case 'moustache':
      return `<path d="M ${x - 26} ${my - 2} Q ${x - 14} ${my - 18} ${x} ${my - 10} Q ${x + 14} ${my - 18} ${x + 26} ${my - 2} Q ${x} ${my - 8} ${x - 26} ${my - 2} Z" fill="${c.hair}"/>`;
    case 'stubble':
      return `<path d="M ${x - rx + 6} ${y + 30} C ${x - rx + 10} ${y + 90}, ${x - 40} ${y + ry + 2}, ${x} ${y + ry + 2}
        C ${x + 40} ${y + ry + 2}, ${x + rx - 10} ${y + 90}, ${x + rx - 6} ${y + 30} L ${x + 30} ${my - 12} L ${x - 30} ${my - 12} Z" fill="${c.hair}" opacity="0.22"/>`;
    default:
      return '';
  }
}

function glasses(t: ActorTraits): string {
  if (!t.glasses) return '';
  const { x, y, rx } = HEAD;
  const ey = y + 4;
  const frame = t.age === '60s+' || t.age === '50s' ? '#6b4a33' : '#1f1f24';
  return `<g fill="#dfefff" fill-opacity="0.18" stroke="${frame}" stroke-width="4.5">
    <rect x="${x - 62}" y="${ey - 20}" width="50" height="38" rx="14"/><rect x="${x + 12}" y="${ey - 20}" width="50" height="38" rx="14"/></g>
    <path d="M ${x - 12} ${ey - 4} Q ${x} ${ey - 12} ${x + 12} ${ey - 4}" stroke="${frame}" stroke-width="4" fill="none"/>
    <path d="M ${x - 62} ${ey - 8} L ${x - rx + 2} ${ey - 12} M ${x + 62} ${ey - 8} L ${x + rx - 2} ${ey - 12}" stroke="${frame}" stroke-width="4"/>`;
}

function head(c: RigColours, t: ActorTraits, pose: RigPose): string {
  const { x, y, rx, ry } = HEAD;
  const jaw = t.gender === 'male' ? 0.86 : 0.8;
  // An egg: round cranium, narrower jaw.
  const face = `M ${x} ${y - ry} C ${x + rx * 1.02} ${y - ry}, ${x + rx * 1.05} ${y + ry * 0.1}, ${x + rx * 0.97} ${y + ry * 0.35}
    C ${x + rx * jaw} ${y + ry * 0.8}, ${x + rx * 0.45} ${y + ry}, ${x} ${y + ry}
    C ${x - rx * 0.45} ${y + ry}, ${x - rx * jaw} ${y + ry * 0.8}, ${x - rx * 0.97} ${y + ry * 0.35}
    C ${x - rx * 1.05} ${y + ry * 0.1}, ${x - rx * 1.02} ${y - ry}, ${x} ${y - ry} Z`;
  const ears = `<ellipse cx="${x - rx + 2}" cy="${y + 10}" rx="15" ry="24" fill="${c.skin}"/><ellipse cx="${x + rx - 2}" cy="${y + 10}" rx="15" ry="24" fill="${c.skin}"/>
    <ellipse cx="${x - rx + 2}" cy="${y + 10}" rx="7" ry="13" fill="${c.skinShade}"/><ellipse cx="${x + rx - 2}" cy="${y + 10}" rx="7" ry="13" fill="${c.skinShade}"/>`;
  const nose = `<path d="M ${x - 2} ${y + 8} Q ${x - 12} ${y + 34} ${x - 6} ${y + 40} Q ${x + 2} ${y + 44} ${x + 10} ${y + 38}" stroke="${c.skinShade}" stroke-width="3.5" fill="none" stroke-linecap="round"/>`;
  // Rosy cheeks read as feminine at thumbnail size: men get a trace of them, so the catalogue's men read as men.
  const blush = t.gender === 'male' ? 0.06 : 0.16;
  const cheeks = `<ellipse cx="${x - 50}" cy="${y + 40}" rx="16" ry="9" fill="#e8686c" opacity="${blush}"/><ellipse cx="${x + 50}" cy="${y + 40}" rx="16" ry="9" fill="#e8686c" opacity="${blush}"/>`;
  const earrings =
    t.gender === 'female'
      ? `<circle cx="${x - rx + 2}" cy="${y + 38}" r="4.5" fill="#e8c46a"/><circle cx="${x + rx - 2}" cy="${y + 38}" r="4.5" fill="#e8c46a"/>`
      : '';
  return `${ears}${earrings}<path d="${face}" fill="${c.skin}"/>${cheeks}${ageLines(c, t)}${beard(c, t)}${hairFront(c, t)}${brows(c, t)}${eyes(c, pose)}${nose}${mouth(c, pose.viseme)}${glasses(t)}`;
}

/**
 * The rest positions of the wrists: arms hanging, hands below the bottom edge. A medium shot crops a resting arm
 * mid-forearm; with the wrists at 980 the frame cut through the hands, which read as stumps at the bottom edge
 * (worse after the push-in). Exported for the framing test.
 */
export const REST_WRIST_L: [number, number] = [132, 1096];
export const REST_WRIST_R: [number, number] = [444, 1096];

/**
 * SVG of the figure (transparent background) in the 576x1024 frame. `layer`: 'back' is the whole figure; 'front'
 * is only the holding hand's back and fingers, drawn over the product.
 */
export function figureSvg(
  t: ActorTraits,
  c: RigColours,
  pose: RigPose,
  product: HeldProduct | null,
  layer: 'back' | 'front' = 'back',
  size: { width: number; height: number } = { width: W, height: H },
): string {
  const open = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}" viewBox="0 0 ${W} ${H}">`;
  return `${open}${figureSvgBody(t, c, pose, product, layer)}</svg>`;
}

/** The figure's elements without the enclosing `<svg>`, in frame coordinates (to draw it inside a larger picture). */
export function figureSvgBody(
  t: ActorTraits,
  c: RigColours,
  pose: RigPose,
  product: HeldProduct | null,
  layer: 'back' | 'front',
): string {
  const hand = handFor(product, pose);
  if (layer === 'front') return hand ? frontHand(hand, c) : '';
  const b = pose.breath;
  const headTransform = `translate(0 ${-b}) rotate(${pose.tilt} ${NECK_JOINT.x} ${NECK_JOINT.y})`;
  const left = hand && hand.side === -1 ? hand.wrist : REST_WRIST_L;
  const right = hand && hand.side === 1 ? hand.wrist : REST_WRIST_R;
  const arms =
    arm(SHOULDER_L, left, -1, c, t, b) +
    arm(SHOULDER_R, right, 1, c, t, b) +
    (hand?.side === -1 ? '' : restingHand(REST_WRIST_L, -1, c)) +
    (hand?.side === 1 ? '' : restingHand(REST_WRIST_R, 1, c));
  return `<g transform="${headTransform}">${hairBack(c, t)}</g>${neck(c, b, t.garment)}${torso(c, t, b)}
    <g transform="${headTransform}">${hairOverShoulders(c, t)}${head(c, t, pose)}</g>${arms}${hand ? backHand(hand, c) : ''}`;
}

/** Behind the product: the palm and the thumb on the far side (at the fingers' height, below the label). */
function backHand(h: HandGeometry, c: RigColours): string {
  const [gx, gy] = h.grip;
  const s = h.side;
  const k = h.unit / 16;
  return `<g transform="translate(${f(gx)} ${f(gy)}) rotate(${f(h.angle)})">
    <rect x="${f(s === 1 ? -h.hw * 0.2 : -h.hw - 30)}" y="${f(-30 * k)}" width="${f(h.hw * 1.2 + 30)}" height="${f(60 * k)}" rx="${f(26 * k)}" fill="${c.skin}"/>
    <ellipse cx="${f(-s * (h.hw - 4))}" cy="${f(-h.unit)}" rx="${f(11 * k)}" ry="${f(17 * k)}" fill="${c.skin}" transform="rotate(${-s * 30} ${f(-s * (h.hw - 4))} ${f(-h.unit)})"/></g>`;
}

/** In front of the product: the back of the hand at the product's edge and four fingers across its lower part. */
function frontHand(h: HandGeometry, c: RigColours): string {
  const [gx, gy] = h.grip;
  const s = h.side;
  const u = h.unit;
  const k = u / 16;
  const edge = s * h.hw;
  const fingers = [-1.5, -0.5, 0.5, 1.5].map((m, i) => {
    const dy = m * u;
    const len = h.reach * [0.86, 1, 0.96, 0.78][i]!;
    const x0 = s === 1 ? edge - len : edge - 6;
    return `<rect x="${f(x0)}" y="${f(dy - u / 2)}" width="${f(len + 6)}" height="${f(u)}" rx="${f(u / 2)}" fill="${c.skin}"/>
      <path d="M ${f(edge - s * len + s * 7)} ${f(dy - u * 0.3)} L ${f(edge - s * len + s * 7)} ${f(dy + u * 0.3)}" stroke="${c.skinShade}" stroke-width="2" stroke-linecap="round"/>`;
  });
  return `<g transform="translate(${f(gx)} ${f(gy)}) rotate(${f(h.angle)})">
    <path d="M ${f(edge - s * 8)} ${f(-2 * u)} Q ${f(edge + s * 30)} ${f(-38 * k)} ${f(edge + s * 40)} ${f(6 * k)} Q ${f(edge + s * 34)} ${f(40 * k)} ${f(edge - s * 6)} ${f(34 * k)} Z" fill="${c.skin}"/>
    ${fingers.join('')}
    <path d="M ${f(edge - s * 2)} ${f(-30 * k)} Q ${f(edge + s * 8)} 0 ${f(edge - s * 2)} ${f(30 * k)}" stroke="${c.skinShade}" stroke-width="2.5" fill="none" opacity="0.7"/></g>`;
}

/** The rig's boxes in frame coordinates for a pose (layout reads these to keep text off the face and product). */
export interface RigBoxes {
  /** The head with its hair. */
  face: Box;
  /** Every mouth shape fits in this box. */
  mouth: Box;
  /** Shoulders to the bottom of the frame. */
  body: Box;
  /** The holding hand as drawn (palm, thumb, fingers); without a product, the resting forearm at the frame's edge. */
  hand: Box;
  /** The product as drawn (rotated bounds); null without one. */
  product: Box | null;
}

export function rigBoxes(t: ActorTraits, product: HeldProduct | null, pose: RigPose = REST_POSE): RigBoxes {
  const wide = t.hairStyle === 'afro' ? 70 : t.hairStyle === 'long' || t.hairStyle === 'curly' ? 42 : 26;
  const top =
    t.hairStyle === 'bun'
      ? HEAD.y - HEAD.ry - 70
      : t.hairStyle === 'afro'
        ? HEAD.y - HEAD.ry - 80
        : HEAD.y - HEAD.ry - 40;
  const face = {
    x: HEAD.x - HEAD.rx - wide,
    y: top - pose.breath,
    w: 2 * (HEAD.rx + wide),
    h: HEAD.y + HEAD.ry + (t.beard === 'full' ? 26 : 4) - top,
  };
  const mouth = { x: HEAD.x - 30, y: HEAD.y + 62 - 14 - pose.breath, w: 60, h: 44 };
  const body = { x: 50, y: 586 - pose.breath, w: W - 100, h: H - 586 + pose.breath };
  const hand = handFor(product, pose);
  let handBox: Box;
  let productBox: Box | null = null;
  if (hand && product) {
    productBox = rotatedBounds(liftedProduct(product, pose));
    handBox = heldHandBounds(hand);
  } else {
    // The resting hand is out of frame: its box is the forearm where it leaves the picture.
    handBox = { x: REST_WRIST_R[0] - 30, y: H - 60, w: 60, h: 60 };
  }
  return { face, mouth, body, hand: handBox, product: productBox };
}

/**
 * The holding hand as `backHand` and `frontHand` draw it (palm, thumb, back of the hand and the four fingers, not
 * the forearm), turned with the product: what text must stay off, as it is part of how the product is shown.
 */
function heldHandBounds(h: HandGeometry): Box {
  const k = h.unit / 16;
  // Beyond the product's edge on the arm's side: the back of the hand (40k) or the palm (30); on the far side
  // the thumb (its ellipse about 17k out from hw - 4).
  const near = h.hw + Math.max(40 * k, 30);
  const far = h.hw + 17 * k;
  const [x0, x1] = h.side === 1 ? [-far, near] : [-near, far];
  const corners = [x0, x1].flatMap((x) =>
    [-38 * k, 40 * k].map((y) => rot(h.grip[0] + x, h.grip[1] + y, ...h.grip, h.angle)),
  );
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  const x = Math.floor(Math.min(...xs));
  const y = Math.floor(Math.min(...ys));
  return { x, y, w: Math.ceil(Math.max(...xs)) - x, h: Math.ceil(Math.max(...ys)) - y };
}

/** Union of two boxes. */
export function unionBox(a: Box, b: Box): Box {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

export function rotatedBounds(p: HeldProduct): Box {
  const r = (p.rotation * Math.PI) / 180;
  const w = Math.abs(p.width * Math.cos(r)) + Math.abs(p.height * Math.sin(r));
  const h = Math.abs(p.width * Math.sin(r)) + Math.abs(p.height * Math.cos(r));
  return { x: Math.round(p.cx - w / 2), y: Math.round(p.cy - h / 2), w: Math.round(w), h: Math.round(h) };
}
