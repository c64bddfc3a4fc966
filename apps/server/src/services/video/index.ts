/**
 * What every video area shares: the Realistic rules and prices, the look of a video and its file names. Other
 * areas import it only through this file.
 */
export {
  assertInventedCharacters,
  assertRealisticActor,
  assertRealisticAvailable,
  packUpgradeCredits,
  projectVideoCredits,
  upgradeCredits,
  type PricedProject,
} from './realistic.ts';
export { extraAspectsOf } from '../video-style.ts';
