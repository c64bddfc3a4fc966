import { describe, expect, it } from 'vitest';
import { legacyTrialKeyOf, trialKeyOf } from './trial-key.ts';

describe('trialKeyOf', () => {
  it('is one key per mailbox: case, spaces, +tags, Gmail dots and googlemail.com do not make a new address', () => {
    const key = trialKeyOf('salt', 'ada@example.com');
    for (const variant of ['ADA@example.com', ' ada@Example.COM ', 'ada+1@example.com', 'Ada+promo+2@example.com'])
      expect(trialKeyOf('salt', variant)).toBe(key);
    expect(trialKeyOf('salt', 'bob@example.com')).not.toBe(key);
    expect(trialKeyOf('salt', 'a.d.a+x@googlemail.com')).toBe(trialKeyOf('salt', 'ada@gmail.com'));
  });

  it('depends on the installation salt and does not contain the address', () => {
    expect(trialKeyOf('salt-a', 'ada@example.com')).not.toBe(trialKeyOf('salt-b', 'ada@example.com'));
    expect(trialKeyOf('salt', 'ada@example.com')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('matches the legacy key wherever the old rule already agreed, so old claims keep counting', () => {
    expect(trialKeyOf('salt', 'Ada+1@example.com')).toBe(legacyTrialKeyOf('salt', 'ada@example.com'));
    expect(trialKeyOf('salt', 'a.da@gmail.com')).not.toBe(legacyTrialKeyOf('salt', 'a.da@gmail.com'));
  });
});
