/**
 * `npm run decisions:index`: writes docs/decisions/README.md, the index of the decision records, from the records
 * themselves (decision 195). Each record opens with header lines before its `# NNN — Title` heading:
 *
 *   Status: accepted | superseded by NNN | amended by NNN[, NNN…]
 *   Date: YYYY-MM-DD            (the day the record was added)
 *   Topic: tuning               (optional: a speed or test-run tuning note, listed apart; decision 196)
 *
 * `apps/server/test/decisions-index.test.ts` fails when the index differs from what this script writes, so a new
 * record or a changed status needs one `npm run decisions:index`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const DECISIONS_DIR = path.resolve(import.meta.dirname, '../docs/decisions');
const RECORD_FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
const STATUS = /^(accepted|superseded by \d{3}|amended by \d{3}(?:, \d{3})*)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TOPICS = ['tuning'] as const;
type Topic = (typeof TOPICS)[number];

export interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  status: string;
  date: string;
  topic: Topic | null;
}

/** A record's header lines and title; throws naming the file and what is wrong or missing. */
export function parseRecord(file: string, text: string): DecisionRecord {
  const match = RECORD_FILE.exec(file);
  if (!match) throw new Error(`${file}: a record's file is named NNN-words-in-lowercase.md`);
  const number = match[1]!;
  const lines = text.split('\n');
  const headingAt = lines.findIndex((l) => l.startsWith('# '));
  if (headingAt < 0) throw new Error(`${file}: no "# ${number} — Title" heading`);
  // The header lines open the file; lines between the heading and the first section are read too, so a record
  // written with them under its heading is still indexed.
  const firstSection = lines.findIndex((l, i) => i > headingAt && l.startsWith('## '));
  const header = new Map<string, string>();
  for (const [i, line] of lines.slice(0, firstSection < 0 ? lines.length : firstSection).entries()) {
    const field = /^(Status|Date|Topic):\s*(.*?)\s*$/i.exec(line);
    if (field) header.set(field[1]!.toLowerCase(), field[2]!);
    else if (i < headingAt && line.trim() !== '')
      throw new Error(`${file}: unexpected line before the heading: ${line}`);
  }
  const status = header.get('status')?.toLowerCase();
  if (!status || !STATUS.test(status)) {
    throw new Error(`${file}: needs "Status: accepted", "Status: superseded by NNN" or "Status: amended by NNN"`);
  }
  const date = header.get('date');
  if (!date || !DATE.test(date)) throw new Error(`${file}: needs "Date: YYYY-MM-DD"`);
  const topic = header.get('topic')?.toLowerCase() ?? null;
  if (topic !== null && !(TOPICS as readonly string[]).includes(topic)) {
    throw new Error(`${file}: "Topic: ${topic}" is not one of ${TOPICS.join(', ')}`);
  }
  const heading = lines[headingAt]!.slice(2).trim();
  // "NNN — Title" (also "NNN: Title", "NNN. Title" in older records).
  const title = heading.replace(new RegExp(`^${number}\\s*(?:—|-|:|\\.)\\s*`), '');
  if (title === heading) throw new Error(`${file}: the heading starts with the record's number: "# ${number} — …"`);
  return { number, file, title, status, date, topic: topic as Topic | null };
}

/** Every record in the folder, by number; throws when two share a number or a status names a missing record. */
export function readRecords(dir: string = DECISIONS_DIR): DecisionRecord[] {
  const records = readdirSync(dir)
    .filter((f) => f !== 'README.md' && f.endsWith('.md'))
    .sort()
    .map((f) => parseRecord(f, readFileSync(path.join(dir, f), 'utf8')));
  const numbers = new Set<string>();
  for (const r of records) {
    if (numbers.has(r.number)) throw new Error(`${r.file}: another record already has number ${r.number}`);
    numbers.add(r.number);
  }
  for (const r of records) {
    for (const n of r.status.match(/\d{3}/g) ?? []) {
      if (!numbers.has(n)) throw new Error(`${r.file}: "Status: ${r.status}" names ${n}, which has no record`);
      if (n === r.number) throw new Error(`${r.file}: "Status: ${r.status}" names the record itself`);
    }
  }
  return records;
}

const cell = (s: string) => s.replaceAll('|', '\\|');

/** The status with the records it names linked. */
function statusCell(status: string, byNumber: Map<string, DecisionRecord>): string {
  return status.replace(/\d{3}/g, (n) => `[${n}](${byNumber.get(n)!.file})`);
}

function table(records: DecisionRecord[], byNumber: Map<string, DecisionRecord>): string[] {
  return [
    '| No. | Decision | Status | Date |',
    '|---|---|---|---|',
    ...records.map(
      (r) => `| ${r.number} | [${cell(r.title)}](${r.file}) | ${statusCell(r.status, byNumber)} | ${r.date} |`,
    ),
  ];
}

/** The index's text: architecture and product decisions first, then the tuning notes. */
export function renderIndex(records: DecisionRecord[]): string {
  const byNumber = new Map(records.map((r) => [r.number, r]));
  const decisions = records.filter((r) => r.topic === null);
  const tuning = records.filter((r) => r.topic === 'tuning');
  return [
    '# Decision records',
    '',
    '<!-- Written by `npm run decisions:index` (scripts/decisions-index.ts) from the records; do not edit by hand. -->',
    '',
    'Why Hookreel is built the way it is, one choice per record (Context, Decision, Consequences). A record is',
    'never rewritten to say something else: a later one supersedes it (the old one no longer holds) or amends it',
    '(part of it changed; the rest holds), and both say so. To add one: take the next free number, open the file',
    'with `Status:` and `Date:` lines and a `# NNN — Title` heading, and run `npm run decisions:index`',
    '([decision 195](195-decision-index.md)).',
    '',
    `## Decisions (${decisions.length})`,
    '',
    ...table(decisions, byNumber),
    '',
    `## Tuning notes (${tuning.length})`,
    '',
    'Measured speed and test-run changes, kept as records because code, tests and other records link to them;',
    'what they add up to is in [docs/performance.md](../performance.md) ([decision 196](196-tuning-notes.md)).',
    '',
    ...table(tuning, byNumber),
    '',
  ].join('\n');
}

export const INDEX_FILE = path.join(DECISIONS_DIR, 'README.md');

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const records = readRecords();
  writeFileSync(INDEX_FILE, renderIndex(records));
  console.log(`docs/decisions/README.md: ${records.length} records`);
}
