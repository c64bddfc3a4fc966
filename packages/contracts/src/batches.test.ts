import { describe, expect, it } from 'vitest';
import { BATCH_COLUMNS, BATCH_MESSAGES, BATCH_TEMPLATE_CSV, parseBatchSheet, parseCsvRecords } from './batches.ts';

describe('parseCsvRecords', () => {
  it('keeps quoted commas, doubled quotes and line breaks, and numbers records by their first line', () => {
    const { records, error } = parseCsvRecords('a,b\r\n"x, y","say ""hi"""\n\n"one\ntwo",z\n');
    expect(error).toBeNull();
    expect(records).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['x, y', 'say "hi"'] },
      { line: 4, cells: ['one\ntwo', 'z'] },
    ]);
  });

  it('reads semicolon sheets and a byte-order mark, and reports an unclosed quote at its line', () => {
    expect(parseCsvRecords('\uFEFFa;b\n1;2').records[1]!.cells).toEqual(['1', '2']);
    expect(parseCsvRecords('a,b\n1,2\n"open,3\n').error).toEqual({
      line: 3,
      column: null,
      message: BATCH_MESSAGES.unclosedQuote,
    });
  });
});

const VOICES = [
  { id: 'flite:awb', label: 'Alan (Scottish English, flite)', language: 'english' },
  { id: 'espeak:es+f3', label: 'Spanish female (es, eSpeak-NG)', language: 'spanish' },
  { id: 'espeak:es-419+f3', label: 'Spanish female (es-419, eSpeak-NG)', language: 'spanish' },
] as const;

describe('parseBatchSheet', () => {
  it('accepts the template as it is', () => {
    const sheet = parseBatchSheet(BATCH_TEMPLATE_CSV, [], VOICES);
    expect(sheet.errors).toEqual([]);
    expect(sheet.rows.map((r) => r.errors)).toEqual([[], []]);
    expect(sheet.rows[0]!.values).toMatchObject({ voice_id: null });
    expect(sheet.rows[1]!.values).toMatchObject({
      actor_id: '2',
      aspect: '4:5',
      caption_style: 'boxed',
      voice_id: 'espeak:es+f3',
    });
  });

  it('finds a voice of the row’s language by id, name or label, and names a voice it cannot find', () => {
    const sheet = parseBatchSheet(
      'product,script,language,Voice ID\n' +
        'p.png,Hi,english,flite:awb\n' +
        'p.png,Hi,english,alan\n' +
        'p.png,Hola,spanish,"Spanish female (es, eSpeak-NG)"\n' +
        'p.png,Hola,spanish,Alan\n',
      [],
      VOICES,
    );
    expect(sheet.rows.map((r) => r.values.voice_id)).toEqual(['flite:awb', 'flite:awb', 'espeak:es+f3', null]);
    expect(sheet.rows[3]!.errors).toEqual([
      { line: 5, column: 'voice', message: BATCH_MESSAGES.voiceUnknown('Alan', 'spanish') },
    ]);
  });

  it('takes header aliases, labels and loose spellings, and fills defaults', () => {
    const sheet = parseBatchSheet(
      'Product image URL,Actor,Script,Call to action,Caption style,Aspect ratio\n' +
        'https://example.com/p.png,actor 4,Hi,Buy,Word highlight,9x16\n' +
        'p.png,,Hello,,,\n',
    );
    expect(sheet.errors).toEqual([]);
    expect(sheet.rows[0]!.values).toMatchObject({
      actor_id: '4',
      cta: 'Buy',
      caption_style: 'highlight',
      aspect: '9:16',
    });
    expect(sheet.rows[1]!.values).toMatchObject({
      actor_id: '1',
      language: 'english',
      accent: 'american',
      aspect: '9:16',
      cta: null,
    });
  });

  it('names unknown and duplicate columns on the header line', () => {
    const sheet = parseBatchSheet('product,script,script,colour\np.png,Hi,Hi,red\n');
    expect(sheet.errors).toEqual([
      { line: 1, column: 'script', message: BATCH_MESSAGES.duplicateColumn('script') },
      { line: 1, column: null, message: BATCH_MESSAGES.unknownColumn('colour') },
    ]);
  });

  it('refuses hidden text-direction characters and a hook and script too long together', () => {
    const sheet = parseBatchSheet(
      `${BATCH_COLUMNS.join(',')}\np.png,1,Hi\u202E,Script,,,,,\np.png,1,${'h'.repeat(400)},${'s'.repeat(1700)},,,,,\n`,
    );
    expect(sheet.rows[0]!.errors.map((e) => e.column)).toEqual(['hook']);
    expect(sheet.rows[1]!.errors.map((e) => e.column)).toEqual(['script']);
  });
});
