import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/*
 * The layout docs/architecture.md draws, held against the imports of src/: every folder (and
 * file at the top of src/) it lists imports only what it lists below it, and no files import
 * each other in a circle. Imports of every kind count: values, types and import().
 */

const ROOT = resolve(__dirname, '..');
const SRC = join(ROOT, 'src');

/** The source files of src/, specs left out (they may reach test helpers). */
function sourceFiles(folder = SRC): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The files of this tree a file imports, as paths. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => resolve(dirname(file), name))
    .map((path) => [`${path}.ts`, join(path, 'index.ts'), path].find((each) => existsSync(each)))
    .filter((path): path is string => path !== undefined);
}

/** A folder of src/ as `name/`, a file at its top as `name.ts`. */
function placeOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length > 0 ? `${first}/` : first;
}

/**
 * The places the layout block of docs/architecture.md lists under `src/`, from the top down:
 * each line's rank (two places on one line share it).
 */
function documentedRanks(): Map<string, number> {
  const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const block = /```\nsrc\/\n([\s\S]*?)\ntest\//.exec(text);
  if (!block) throw new Error('docs/architecture.md has no layout block beginning with src/');
  const ranks = new Map<string, number>();
  block[1].split('\n').forEach((line, rank) => {
    if (!/^ {2}\S/.test(line)) return;
    for (const word of line.trim().split(/\s+/)) {
      if (!/^[\w.-]+(\/|\.ts)$/.test(word)) break;
      ranks.set(word, rank);
    }
  });
  return ranks;
}

/** Each circle of files (a strongly connected set of two or more), by Tarjan's algorithm. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1) found.push(members.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layout of src/', () => {
  const files = sourceFiles();
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const ranks = documentedRanks();
  const name = (file: string) => relative(ROOT, file);

  it('lists every folder and top-level file of src/ in docs/architecture.md, and no other', () => {
    const places = new Set(files.map(placeOf));
    expect([...ranks.keys()].sort()).toEqual([...places].sort());
  });

  it('has every folder import only folders listed below it', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) {
        const from = placeOf(file);
        const to = placeOf(target);
        if (from !== to && !(ranks.get(from)! < ranks.get(to)!)) {
          upward.push(`${name(file)} -> ${name(target)}`);
        }
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no files that import each other in a circle', () => {
    expect(circles(graph).map((members) => members.map(name))).toEqual([]);
  });
});
