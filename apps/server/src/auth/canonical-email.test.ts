import { describe, expect, it } from 'vitest';
import { canonicalEmail } from './canonical-email.ts';

describe('canonicalEmail', () => {
  it('folds every spelling of one Gmail mailbox: dots, googlemail.com, +tags, case', () => {
    for (const variant of [
      'adalovelace@gmail.com',
      'ada.lovelace@gmail.com',
      'a.d.a.l.o.v.e.l.a.c.e@gmail.com',
      'Ada.Lovelace@GMAIL.com',
      'ada.lovelace@googlemail.com',
      'adalovelace+trial2@googlemail.com',
      ' ada.lovelace+x+y@gmail.com. ',
    ])
      expect(canonicalEmail(variant)).toBe('adalovelace@gmail.com');
  });

  it('keeps dots where the provider does not ignore them', () => {
    expect(canonicalEmail('ada.lovelace@outlook.com')).toBe('ada.lovelace@outlook.com');
    expect(canonicalEmail('ada.lovelace@example.com')).not.toBe(canonicalEmail('adalovelace@example.com'));
  });

  it('drops +tags at other providers too, and keeps different mailboxes apart', () => {
    expect(canonicalEmail('ada+shop@outlook.com')).toBe('ada@outlook.com');
    expect(canonicalEmail('ada+1@example.com')).toBe('ada@example.com');
    expect(canonicalEmail('ada@gmail.com')).not.toBe(canonicalEmail('bob@gmail.com'));
    expect(canonicalEmail('ada@gmail.com')).not.toBe(canonicalEmail('ada@outlook.com'));
  });

  it('never produces an empty local part', () => {
    expect(canonicalEmail('+tag@gmail.com')).toBe('+tag@gmail.com');
    expect(canonicalEmail('...@gmail.com')).toBe('...@gmail.com');
    expect(canonicalEmail('not-an-address')).toBe('not-an-address');
  });
});
