/** The "Make realistic" area: a finished Draft video rendered again through the providers, paying the difference. */
export { makeRealistic } from './upgrades.ts';
