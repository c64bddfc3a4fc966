/** The summary ffmpeg's ebur128 filter prints last: "I: -14.1 LUFS" and, with peak=true, "Peak: -1.6 dBFS". */
export function parseEbur128(stderr: string): { integrated: number | null; truePeak: number | null } {
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const i = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary);
  const p = /True peak:\s+Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary);
  const num = (m: RegExpExecArray | null) => (m && m[1] !== '-inf' ? Number(m[1]) : null);
  return { integrated: num(i), truePeak: num(p) };
}
