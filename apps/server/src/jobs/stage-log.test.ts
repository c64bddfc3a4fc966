import { describe, expect, it } from 'vitest';
import { StageLog } from './stage-log.ts';

describe('StageLog', () => {
  it('keeps one line per stage with its duration, however often a stage reports progress', () => {
    let t = 0;
    const log = new StageLog(['Queued'], 200, () => t);
    log.note('Processing started');
    expect(log.stage('Synthesising the voice')).toBe(true);
    t = 1_200;
    log.stage('Writing captions');
    t = 1_500;
    for (let i = 0; i < 15; i += 1) {
      expect(log.stage(i === 0 ? 'Rendering the video' : 'Rendering the video')).toBe(i === 0);
      t += 1_000;
    }
    log.stage('Video ready');
    log.close();
    expect(log.snapshot('Completed')).toEqual([
      'Queued',
      'Processing started',
      'Synthesising the voice — 1.2 s',
      'Writing captions — 0.3 s',
      'Rendering the video — 15 s',
      'Video ready',
      'Completed',
    ]);
  });

  it('puts side notes before the open stage without ending it', () => {
    let t = 0;
    const log = new StageLog([], 10, () => t);
    log.stage('Rendering the video');
    log.aside('Provider: 1 call, $0.01');
    t = 2_000;
    log.stage('Rendering the video');
    log.close();
    expect(log.snapshot()).toEqual(['Provider: 1 call, $0.01', 'Rendering the video — 2.0 s']);
  });

  it('keeps at most `max` lines and writes minutes for long stages', () => {
    let t = 0;
    const log = new StageLog([], 3, () => t);
    for (const s of ['a', 'b', 'c', 'd']) log.stage(s);
    t = 150_000;
    log.close();
    expect(log.snapshot()).toEqual(['b', 'c', 'd — 2 min 30 s']);
  });
});
