import { describe, expect, it } from 'vitest';
import { aspectFileName, asciiSlug, isSafeFileName, videoFileName } from './file-names.ts';

describe('download file names', () => {
  it('are ASCII slugs of the pack or project, the video and the actor', () => {
    expect(videoFileName({ base: 'Glow Serum — Nov 23', variantIndex: 3, actor: 'Character 2' })).toBe(
      'glow-serum-nov-23-video-03-character-2.mp4',
    );
    expect(videoFileName({ base: 'Glow Serum', variantIndex: 3, variantId: 'H2-A1-C3', actor: 'Character 1' })).toBe(
      'glow-serum-video-03-h2-a1-c3-character-1.mp4',
    );
    expect(videoFileName({ base: 'Crème brûlée «été» 日本', actor: 'Zoë' })).toBe('creme-brulee-ete-zoe.mp4');
    expect(videoFileName({ base: '日本語' })).toBe('video.mp4');
  });

  it('never carry quotes, slashes or header-breaking characters', () => {
    const name = videoFileName({ base: 'a"b/c\\d\r\ne;f', variantIndex: 12, actor: '../../etc' });
    expect(name).toBe('a-b-c-d-e-f-video-12-etc.mp4');
    expect(isSafeFileName(name)).toBe(true);
    expect(isSafeFileName('a"b.mp4')).toBe(false);
    expect(isSafeFileName('../x.mp4')).toBe(false);
    expect(asciiSlug('x'.repeat(100), 10)).toBe('xxxxxxxxxx');
  });

  it('keep the 9:16 name and add the shape tag for 4:5 and 1:1', () => {
    const name = videoFileName({ base: 'Spring launch', actor: 'Ava' });
    expect(aspectFileName(name, '9:16')).toBe('spring-launch-ava.mp4');
    expect(aspectFileName(name, '4:5')).toBe('spring-launch-ava-4x5.mp4');
    expect(aspectFileName(name, '1:1')).toBe('spring-launch-ava-1x1.mp4');
    expect(isSafeFileName(aspectFileName(name, '1:1'))).toBe(true);
  });
});
