import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/*
 * Where a test run's time goes: `npm test -- --json --outputFile=run.json`, then
 * `npx ts-node bench/test-times.ts run.json [other.json]`. Prints each file's time, slowest
 * first (an e2e file's two runs, SQLite and MariaDB, added together: Jest's JSON does not name
 * the project), and the sums: the wall time is about the sum divided by the workers (2). With
 * two files, they are compared side by side (before, after).
 */

interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
}

interface Run {
  startTime: number;
  testResults: FileResult[];
}

interface Timing {
  key: string;
  seconds: number;
}

function timings(path: string): { wallSeconds: number; files: Map<string, number> } {
  const run = JSON.parse(readFileSync(path, 'utf8')) as Run;
  const files = new Map<string, number>();
  const ends: number[] = [];
  for (const file of run.testResults) {
    const key = relative(process.cwd(), file.name).replace(/^.*?\/(src|test)\//, '$1/');
    files.set(key, (files.get(key) ?? 0) + (file.endTime - file.startTime) / 1000);
    ends.push(file.endTime);
  }
  return { wallSeconds: (Math.max(...ends) - run.startTime) / 1000, files };
}

function main(): void {
  const [first, second] = process.argv.slice(2);
  if (!first) {
    console.error('usage: ts-node bench/test-times.ts run.json [other.json]');
    process.exit(2);
  }
  const runs = [first, second].filter((path): path is string => path !== undefined).map(timings);
  const keys = [...new Set(runs.flatMap((run) => [...run.files.keys()]))];
  const rows: Timing[][] = runs.map((run) =>
    keys.map((key) => ({ key, seconds: run.files.get(key) ?? 0 })),
  );
  const order = keys
    .map((key, index) => ({ key, seconds: Math.max(...rows.map((row) => row[index].seconds)) }))
    .sort((a, b) => b.seconds - a.seconds);
  const header = runs.length === 2 ? '| file | before (s) | after (s) |' : '| file | seconds |';
  console.log(header);
  console.log(runs.length === 2 ? '|---|---:|---:|' : '|---|---:|');
  for (const { key } of order) {
    const cells = runs.map((run) => (run.files.has(key) ? run.files.get(key)!.toFixed(1) : '—'));
    console.log(`| ${key} | ${cells.join(' | ')} |`);
  }
  const sum = (run: (typeof runs)[number]) =>
    [...run.files.values()].reduce((total, seconds) => total + seconds, 0);
  console.log(`| **sum of files** | ${runs.map((run) => sum(run).toFixed(0)).join(' | ')} |`);
  console.log(`| **wall** | ${runs.map((run) => run.wallSeconds.toFixed(0)).join(' | ')} |`);
}

main();
