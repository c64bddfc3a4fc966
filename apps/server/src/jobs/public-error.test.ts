import { describe, expect, it } from 'vitest';
import { publicJobError } from './public-error.ts';

describe('publicJobError', () => {
  it('never shows a server path, a stack or stderr', () => {
    // The engine's ProcessError, as its runProcess words it.
    const ffmpeg = Object.assign(
      new Error(
        'ffmpeg exited with 1: /srv/hookreel/data/work/job-7-ab12/captions.ass: No such file | Conversion failed!',
      ),
      { name: 'ProcessError', stderr: 'stderr with /srv/hookreel/data/work/job-7-ab12/out.mp4', code: 1 },
    );
    expect(publicJobError(ffmpeg)).toBe('ffmpeg failed while rendering (exit code 1)');
    const missing = Object.assign(
      new Error("ENOENT: no such file or directory, open '/srv/data/files/users/1/x.png'"),
      {
        code: 'ENOENT',
      },
    );
    expect(publicJobError(missing)).toBe('The server could not read or write a file this job needed (ENOENT)');
    const plain = new Error(
      'Could not load file:///srv/app/node_modules/x/model.onnx and /tmp/a/b.wav\n    at foo (/srv/app/x.ts:1:1)',
    );
    const text = publicJobError(plain);
    expect(text).toBe('Could not load … and …');
    for (const t of [publicJobError(ffmpeg), publicJobError(missing), text]) expect(t).not.toMatch(/\/\w+\//);
  });

  it('keeps plain messages as they are', () => {
    expect(publicJobError(new Error('The project has no script to speak'))).toBe('The project has no script to speak');
    expect(publicJobError(new Error('ffmpeg exited with code 1'))).toBe('ffmpeg exited with code 1');
    expect(publicJobError(Object.assign(new Error('disk'), { code: 'ENOSPC' }))).toBe(
      'The server ran out of storage space (ENOSPC)',
    );
  });
});
