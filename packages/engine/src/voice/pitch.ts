/**
 * The speaking pitch of a take: the median fundamental frequency of its voiced frames, by normalised
 * autocorrelation (40 ms frames every 20 ms, 70–400 Hz). Quiet frames (below the take's median energy) and frames
 * without a clear period are skipped. Null when too few frames are voiced to say.
 */
export function medianPitchHz(samples: Float32Array, rate: number): number | null {
  const frame = Math.round(0.04 * rate);
  const hop = Math.round(0.02 * rate);
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 70);
  if (samples.length < frame + maxLag) return null;
  const starts: number[] = [];
  const energies: number[] = [];
  for (let at = 0; at + frame + maxLag <= samples.length; at += hop) {
    let e = 0;
    for (let i = 0; i < frame; i++) e += samples[at + i]! ** 2;
    starts.push(at);
    energies.push(e);
  }
  const loud = [...energies].sort((a, b) => a - b)[Math.floor(energies.length / 2)]!;
  const pitches: number[] = [];
  starts.forEach((at, n) => {
    if (energies[n]! <= loud || energies[n]! === 0) return;
    let bestLag = 0;
    let best = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let xy = 0;
      let yy = 0;
      for (let i = 0; i < frame; i++) {
        const y = samples[at + i + lag]!;
        xy += samples[at + i]! * y;
        yy += y * y;
      }
      const r = yy > 0 ? xy / Math.sqrt(energies[n]! * yy) : 0;
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best >= 0.6 && bestLag > 0) pitches.push(rate / bestLag);
  });
  if (pitches.length < 5) return null;
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)]!;
}

/**
 * Which of our voices sounds closer to a take of this pitch: adult male speech sits around 85–155 Hz, female around
 * 165–255 Hz; the boundary is between the two ranges.
 */
export const genderOfPitch = (hz: number): 'male' | 'female' => (hz < 160 ? 'male' : 'female');
