import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  areaSideDoors,
  isEngine,
  readGraph,
  runtimeCycles,
  sourceFiles,
  tableAccessOutside,
  under,
} from './helpers/import-graph.ts';

/**
 * The directions of apps/server/src, read from the source (docs/architecture.md, decisions 081 and 200): http →
 * services → the jobs runner, media and the database, never back; no runtime import cycle anywhere; the runner
 * knows no feature; only media/ touches the engine; only repositories (and migrations) touch tables; each area of
 * services/ is entered only through its face, `index.ts`. A type-only import is erased at run time, so it is not a
 * runtime edge (the runner may name `AppContext`, whose module wires every area).
 */

const SRC = path.resolve(import.meta.dirname, '../src');
/** Where SQL may be written: the repositories, the migrations and the migration runner's own bookkeeping. */
const TABLE_OWNERS = ['db/repositories', 'db/migrations', 'db/migrate.ts'];

const edges = readGraph(SRC);
const runtime = edges.filter((e) => e.runtime);

/** Files reachable from `start` through runtime imports inside src. */
function runtimeClosure(start: string[]): Map<string, string[]> {
  const paths = new Map(start.map((f) => [f, [f]]));
  const queue = [...start];
  while (queue.length) {
    const f = queue.shift()!;
    for (const e of runtime.filter((x) => x.from === f && !x.to.startsWith('@') && !x.to.includes(':'))) {
      if (paths.has(e.to) || e.to.startsWith('..')) continue;
      paths.set(e.to, [...paths.get(f)!, e.to]);
      queue.push(e.to);
    }
  }
  return paths;
}

describe('import boundaries of apps/server/src', () => {
  it('reads a graph of the whole source (sanity check of the reader itself)', () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(runtime.some((e) => e.from === 'context.ts' && e.to === 'job-definitions.ts')).toBe(true);
    // `import type` is not a runtime edge.
    expect(edges.find((e) => e.from === 'jobs/definition.ts' && e.to === 'context.ts')?.runtime).toBe(false);
  });

  it('the jobs runner reaches no service, no route, no job definition and no engine at run time', () => {
    const runner = [...new Set(edges.map((e) => e.from))].filter(under('jobs'));
    expect(runner.length).toBeGreaterThan(5);
    const reached = runtimeClosure(runner);
    const bad = [...reached.entries()]
      .filter(([f]) => under('services')(f) || under('http')(f) || f === 'job-definitions.ts')
      .map(([, via]) => via.join(' → '));
    expect(bad).toEqual([]);
    const engineFromRunner = runtime.filter((e) => reached.has(e.from) && isEngine(e.to)).map((e) => e.from);
    expect(engineFromRunner).toEqual([]);
  });

  it('no module outside the media port (media/) imports the engine, not even its types or a unit test beside it', () => {
    const importers = readGraph(SRC, true)
      .filter((e) => isEngine(e.to))
      .map((e) => e.from);
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !under('media')(f))).toEqual([]);
  });

  it('has no runtime import cycle anywhere', () => {
    expect(runtimeCycles(edges)).toEqual([]);
  });

  it('no module outside the repositories and migrations touches a table', () => {
    expect(tableAccessOutside(SRC, TABLE_OWNERS)).toEqual([]);
  });

  it('every service lives in an area folder and is entered only through its face (index.ts)', () => {
    const loose = readdirSync(path.join(SRC, 'services'), { withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => e.name);
    expect(loose).toEqual([]);
    const areas = readdirSync(path.join(SRC, 'services'));
    expect(areas.length).toBeGreaterThan(8);
    expect(areas.filter((a) => !edges.some((e) => e.from === `services/${a}/index.ts`))).toEqual([]);
    expect(areaSideDoors(edges, 'services')).toEqual([]);
  });

  it('nothing below http/ imports it: errors and types it shares live in neutral modules', () => {
    const upward = runtime
      .filter((e) => under('http')(e.to) && !under('http')(e.from) && e.from !== 'main.ts')
      .map((e) => `${e.from} → ${e.to}`);
    expect(upward).toEqual([]);
  });

  it('services import no route; repositories import no service, route or runner', () => {
    const bad = runtime
      .filter(
        (e) =>
          (under('services')(e.from) && under('http')(e.to)) ||
          (under('db')(e.from) && (under('services')(e.to) || under('http')(e.to) || under('jobs')(e.to))),
      )
      .map((e) => `${e.from} → ${e.to}`);
    expect(bad).toEqual([]);
  });

  it('only the jobs repository writes the jobs table', () => {
    const writers = sourceFiles(path.join(SRC, 'db/repositories')).filter((f) =>
      /(insertInto|updateTable|deleteFrom)\(\s*'jobs'\s*\)/.test(readFileSync(f, 'utf8')),
    );
    expect(writers.map((f) => path.basename(f))).toEqual(['jobs.ts']);
  });
});

/** The checks above, run on small planted trees: each must catch what it is for (and not what it is not). */
describe('the graph checks themselves', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));
  const plant = (files: Record<string, string>): string => {
    const root = mkdtempSync(path.join(tmpdir(), 'hookreel-graph-'));
    roots.push(root);
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      writeFileSync(path.join(root, name), text);
    }
    return root;
  };

  it('finds a planted runtime cycle, and not a cycle of type-only imports', () => {
    const cyclic = plant({
      'services/a/one.ts': "import { two } from './two.ts';\nexport const one = () => two;\n",
      'services/a/two.ts': "import { one } from './one.ts';\nexport const two = () => one;\n",
    });
    expect(runtimeCycles(readGraph(cyclic))).toEqual([['services/a/one.ts', 'services/a/two.ts']]);
    const typesOnly = plant({
      'one.ts': "import type { Two } from './two.ts';\nexport type One = { two: Two };\n",
      'two.ts': "import { type One } from './one.ts';\nexport type Two = { one: One };\n",
    });
    expect(runtimeCycles(readGraph(typesOnly))).toEqual([]);
  });

  it('finds a planted table access in a service, and none in a repository', () => {
    const root = plant({
      'services/billing/refunds.ts': "export const all = (db: any) => db.selectFrom('refund_requests').execute();\n",
      'db/repositories/refunds.ts': "export const all = (db: any) => db.selectFrom('refund_requests').execute();\n",
    });
    expect(tableAccessOutside(root, TABLE_OWNERS)).toEqual(['services/billing/refunds.ts']);
  });

  it('finds a planted engine import outside media/, in a module or in a unit test beside it', () => {
    const root = plant({
      'services/video/probe.ts': "import { ffprobe } from '@hookreel/engine';\nexport const p = ffprobe;\n",
      'services/video/probe.test.ts': "import type { Probe } from '@hookreel/engine';\nexport type P = Probe;\n",
      'media/engine.ts': "import { ffprobe } from '@hookreel/engine';\nexport const p = ffprobe;\n",
    });
    const outside = readGraph(root, true).filter((e) => isEngine(e.to) && !under('media')(e.from));
    expect(outside.map((e) => e.from)).toEqual(['services/video/probe.test.ts', 'services/video/probe.ts']);
  });

  it('finds a planted side door into another area, and allows its face and the area’s own files', () => {
    const root = plant({
      'services/jobs/index.ts': "export { createJob } from './create.ts';\n",
      'services/jobs/create.ts': "import { helper } from './helper.ts';\nexport const createJob = helper;\n",
      'services/jobs/helper.ts': 'export const helper = 1;\n',
      'services/projects/queue.ts':
        "import { createJob } from '../jobs/index.ts';\nimport { helper } from '../jobs/helper.ts';\nexport const q = [createJob, helper];\n",
    });
    expect(areaSideDoors(readGraph(root), 'services')).toEqual([
      'services/projects/queue.ts → services/jobs/helper.ts',
    ]);
  });
});
