import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INDEX_FILE, parseRecord, readRecords, renderIndex } from '../../../scripts/decisions-index.ts';

/**
 * docs/decisions/README.md is the index of the decision records, written by `npm run decisions:index` from their
 * header lines (decision 195). It must match the records: none missing, none stale.
 */
describe('the decision index', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const record = (n: string, header: string, title = 'A choice') => `${header}\n\n# ${n} — ${title}\n\n## Context\n`;

  it('lists every record with its title, status and date, as the script writes it', () => {
    const records = readRecords();
    expect(records.length).toBeGreaterThan(80);
    const index = readFileSync(INDEX_FILE, 'utf8');
    for (const r of records) expect(index).toContain(`| ${r.number} | [`);
    expect(index, 'docs/decisions/README.md is stale: run `npm run decisions:index` and commit it').toBe(
      renderIndex(records),
    );
  });

  it('reads header lines and refuses a record without them or with an unknown status', () => {
    expect(parseRecord('007-a-choice.md', record('007', 'Status: amended by 009, 012\nDate: 2026-11-28'))).toEqual({
      number: '007',
      file: '007-a-choice.md',
      title: 'A choice',
      status: 'amended by 009, 012',
      date: '2026-11-28',
      topic: null,
    });
    expect(parseRecord('008-x.md', record('008', 'Status: Accepted\nDate: 2026-11-28\nTopic: tuning')).topic).toBe(
      'tuning',
    );
    expect(() => parseRecord('007-a.md', record('007', 'Date: 2026-11-28'))).toThrow(/Status/);
    expect(() => parseRecord('007-a.md', record('007', 'Status: retired\nDate: 2026-11-28'))).toThrow(/Status/);
    expect(() => parseRecord('007-a.md', record('007', 'Status: accepted\nDate: yesterday'))).toThrow(/Date/);
    expect(() => parseRecord('007-a.md', record('008', 'Status: accepted\nDate: 2026-11-28'))).toThrow(/number/);
  });

  it('fails when a record is missing from the index or its status differs', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'decisions-'));
    writeFileSync(path.join(dir, '001-first.md'), record('001', 'Status: amended by 002\nDate: 2026-11-22', 'First'));
    writeFileSync(path.join(dir, '002-second.md'), record('002', 'Status: accepted\nDate: 2026-11-23', 'Second'));
    const index = renderIndex(readRecords(dir));
    expect(index).toContain('| 001 | [First](001-first.md) | amended by [002](002-second.md) | 2026-11-22 |');

    writeFileSync(path.join(dir, '003-third.md'), record('003', 'Status: accepted\nDate: 2026-11-24', 'Third'));
    expect(renderIndex(readRecords(dir))).not.toBe(index);
    rmSync(path.join(dir, '003-third.md'));
    writeFileSync(
      path.join(dir, '002-second.md'),
      record('002', 'Status: superseded by 001\nDate: 2026-11-23', 'Second'),
    );
    expect(renderIndex(readRecords(dir))).not.toBe(index);

    writeFileSync(path.join(dir, '002-second.md'), record('002', 'Status: superseded by 004\nDate: 2026-11-23'));
    expect(() => readRecords(dir)).toThrow(/004, which has no record/);
  });
});
