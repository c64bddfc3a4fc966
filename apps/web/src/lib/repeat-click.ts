/**
 * Whether a click is the second (or later) click of a double click, which a button that spends credits ignores.
 * The browser numbers a double click's clicks in `detail` (1, then 2). While the first spend is in flight the
 * button is disabled and the API client shares the request, but a server that answers before the second click
 * arrives has ended that spend, and the second click would start another. Keyboard activation (`detail` 0) and
 * later single clicks still act.
 */
export const isRepeatClick = (event: { detail: number }): boolean => event.detail > 1;
