import { describe, expect, it } from 'vitest';
import { JOB_DEFINITIONS } from './job-definitions.ts';
import { assertJobDefinitions, laneOf, namesInLane } from './jobs/definition.ts';

describe('job lanes', () => {
  it('webhook deliveries are the background lane; everything users pay for renders', () => {
    expect(namesInLane(JOB_DEFINITIONS, 'background')).toEqual(['deliver-webhook']);
    expect(namesInLane(JOB_DEFINITIONS, 'render').sort()).toEqual(
      Object.keys(JOB_DEFINITIONS)
        .filter((n) => n !== 'deliver-webhook')
        .sort(),
    );
    // A name no definition knows is taken by the render lane, where it fails for good.
    expect(laneOf(JOB_DEFINITIONS, 'no-such-job')).toBe('render');
  });

  it('refuses at boot a definition without a lane', () => {
    const { lane: _lane, ...noLane } = JOB_DEFINITIONS['deliver-webhook'];
    expect(() => assertJobDefinitions({ 'deliver-webhook': noLane })).toThrow('no lane for deliver-webhook');
    expect(() => assertJobDefinitions({ 'deliver-webhook': { ...noLane, lane: 'fast' } })).toThrow(
      'no lane for deliver-webhook',
    );
  });
});
