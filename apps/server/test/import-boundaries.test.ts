import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The directions of apps/server/src, read from the source (docs/contributing.md, decision 081): http → services →
 * the jobs runner and the database, never back; the runner knows no feature; only services and the media port
 * touch the engine. A type-only import is erased at run time, so it is not a runtime edge (the runner may name
 * `AppContext`, whose module wires every area).
 */

const SRC = path.resolve(import.meta.dirname, '../src');

interface Edge {
  from: string;
  /** A path under src for a relative import, else the package name as written. */
  to: string;
  runtime: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** Every import and re-export of a file, with whether it survives compilation. */
function edgesOf(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const rel = (spec: string) =>
    spec.startsWith('.')
      ? path
          .relative(SRC, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/')
      : spec;
  const from = path.relative(SRC, file).split(path.sep).join('/');
  const edges: Edge[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!named &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((e) => e.isTypeOnly)));
      edges.push({ from, to: rel(node.moduleSpecifier.text), runtime: !typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ from, to: rel(node.moduleSpecifier.text), runtime: !node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      edges.push({ from, to: rel(node.arguments[0].text), runtime: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

const edges = sourceFiles(SRC).flatMap(edgesOf);
const runtime = edges.filter((e) => e.runtime);
const under = (dir: string) => (p: string) => p === dir || p.startsWith(`${dir}/`);
const isEngine = (to: string) => to === '@hookreel/engine' || to.startsWith('@hookreel/engine/');

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

  it('no module outside services/ and the media port (media/) imports the engine', () => {
    const importers = edges.filter((e) => isEngine(e.to)).map((e) => e.from);
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((f) => !under('services')(f) && !under('media')(f))).toEqual([]);
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
