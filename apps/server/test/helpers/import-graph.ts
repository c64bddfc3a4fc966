import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The import graph of a source tree, read with the TypeScript parser (apps/server/test/import-boundaries.test.ts
 * checks the server's directions with it; its own tests run it on planted fixture trees). A type-only import is
 * erased at run time, so it is not a runtime edge.
 */

export interface Edge {
  from: string;
  /** A path under the root for a relative import, else the package name as written. */
  to: string;
  runtime: boolean;
}

/** The TypeScript files below `dir`; unit tests beside the code only when `withTests` is set. */
export function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full, withTests);
    return /\.tsx?$/.test(e.name) && (withTests || !/\.test\.tsx?$/.test(e.name)) ? [full] : [];
  });
}

/** Every import and re-export of a file, with whether it survives compilation. */
export function edgesOf(root: string, file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const rel = (spec: string) =>
    spec.startsWith('.')
      ? path
          .relative(root, path.resolve(path.dirname(file), spec))
          .split(path.sep)
          .join('/')
      : spec;
  const from = path.relative(root, file).split(path.sep).join('/');
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
      const named = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (!!named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      edges.push({ from, to: rel(node.moduleSpecifier.text), runtime: !typeOnly });
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

export function readGraph(root: string, withTests = false): Edge[] {
  return sourceFiles(root, withTests).flatMap((f) => edgesOf(root, f));
}

export const under = (dir: string) => (p: string) => p === dir || p.startsWith(`${dir}/`);
export const isEngine = (to: string) => to === '@hookreel/engine' || to.startsWith('@hookreel/engine/');
const isLocal = (to: string) => !to.startsWith('@') && !to.includes(':') && !to.startsWith('..') && to.includes('.');

/** The runtime import cycles among the tree's own files (Tarjan's strongly connected components), each sorted. */
export function runtimeCycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!e.runtime || !isLocal(e.to)) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const connect = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = (next.get(v) ?? []).includes(v);
      if (component.length > 1 || selfLoop) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) connect(v);
  return cycles;
}

/** Kysely's table verbs (and raw `sql`), which only repositories may use. */
const TABLE_ACCESS = /\b(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(|\bsql\s*`/;

/** Files under the root, outside `allowed` folders, that reach a table directly. */
export function tableAccessOutside(root: string, allowed: readonly string[]): string[] {
  return sourceFiles(root)
    .map((f) => path.relative(root, f).split(path.sep).join('/'))
    .filter((f) => !allowed.some((dir) => under(dir)(f)))
    .filter((f) => TABLE_ACCESS.test(readFileSync(path.join(root, f), 'utf8')));
}

/**
 * Imports that enter an area folder (`<areasDir>/<area>/…`) from outside it through any file but the area's face
 * (`index.ts`). Type-only imports count too: an area's types are part of its face.
 */
export function areaSideDoors(edges: readonly Edge[], areasDir: string): string[] {
  const areaOf = (p: string) => {
    if (!under(areasDir)(p)) return null;
    const rest = p.slice(areasDir.length + 1).split('/');
    return rest.length > 1 ? rest[0]! : null;
  };
  return edges
    .filter((e) => {
      const target = areaOf(e.to);
      return target !== null && areaOf(e.from) !== target && e.to !== `${areasDir}/${target}/index.ts`;
    })
    .map((e) => `${e.from} → ${e.to}`);
}
