/** `console.error` fails a test unless the test says it expects one (Epic Stack style). */
export const consoleState = { allowed: false, calls: [] as unknown[][] };

export function allowConsoleError(): void {
  consoleState.allowed = true;
}
