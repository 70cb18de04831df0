import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/*
 * What a V8 heap snapshot holds, summed by kind of object, and what grew between two:
 *
 *   node --max-old-space-size=8192 -r ts-node/register bench/heap-summary.ts A.heapsnapshot [B.heapsnapshot]
 *
 * Objects are grouped by their type and constructor (strings by type alone; arrays, closures
 * and code likewise), with their count and the sum of their own sizes. With two snapshots the
 * groups are listed by growth, and for the groups that grew most a few of their objects new in
 * the second are traced back through their retainers to a global (`--paths N` paths, 3 by
 * default), which says what keeps them.
 */

interface Snapshot {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Heap {
  file: string;
  nodeCount: number;
  nodeFieldCount: number;
  types: string[];
  edgeTypes: string[];
  raw: Snapshot;
  /** Node index → offset of its first edge. */
  firstEdge: Uint32Array;
  groupOf: (node: number) => string;
  selfSize: (node: number) => number;
  id: (node: number) => number;
}

function load(file: string): Heap {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const meta = raw.snapshot.meta;
  const nodeFieldCount = meta.node_fields.length;
  const edgeFieldCount = meta.edge_fields.length;
  const typeAt = meta.node_fields.indexOf('type');
  const nameAt = meta.node_fields.indexOf('name');
  const idAt = meta.node_fields.indexOf('id');
  const sizeAt = meta.node_fields.indexOf('self_size');
  const edgeCountAt = meta.node_fields.indexOf('edge_count');
  const types = meta.node_types[0];
  const nodeCount = raw.nodes.length / nodeFieldCount;
  const firstEdge = new Uint32Array(nodeCount + 1);
  for (let node = 0, edge = 0; node < nodeCount; node++) {
    firstEdge[node] = edge;
    edge += raw.nodes[node * nodeFieldCount + edgeCountAt] * edgeFieldCount;
    firstEdge[node + 1] = edge;
  }
  const groupOf = (node: number) => {
    const type = types[raw.nodes[node * nodeFieldCount + typeAt]];
    if (type === 'object' || type === 'native' || type === 'synthetic') {
      return `${type} ${raw.strings[raw.nodes[node * nodeFieldCount + nameAt]]}`;
    }
    if (type === 'hidden' || type === 'array') {
      return `${type} ${raw.strings[raw.nodes[node * nodeFieldCount + nameAt]].slice(0, 60)}`;
    }
    return type;
  };
  return {
    file,
    nodeCount,
    nodeFieldCount,
    types,
    edgeTypes: meta.edge_types[0],
    raw,
    firstEdge,
    groupOf,
    selfSize: (node) => raw.nodes[node * nodeFieldCount + sizeAt],
    id: (node) => raw.nodes[node * nodeFieldCount + idAt],
  };
}

interface Group {
  count: number;
  bytes: number;
}

function groups(heap: Heap): Map<string, Group> {
  const result = new Map<string, Group>();
  for (let node = 0; node < heap.nodeCount; node++) {
    const key = heap.groupOf(node);
    const group = result.get(key) ?? { count: 0, bytes: 0 };
    group.count++;
    group.bytes += heap.selfSize(node);
    result.set(key, group);
  }
  return result;
}

const mib = (bytes: number) => (bytes / 1048576).toFixed(2);

/** For every node, the edges that point at it (weak and shortcut edges left out). */
interface Retainers {
  first: Uint32Array;
  /** Pairs of (retaining node, its edge offset). */
  list: Uint32Array;
}

function retainersOf(heap: Heap): Retainers {
  const { raw } = heap;
  const kept = (edge: number) => {
    const type = heap.edgeTypes[raw.edges[edge]];
    return type !== 'weak' && type !== 'shortcut';
  };
  const counts = new Uint32Array(heap.nodeCount + 1);
  for (let edge = 0; edge < raw.edges.length; edge += 3) {
    if (kept(edge)) counts[raw.edges[edge + 2] / heap.nodeFieldCount + 1]++;
  }
  for (let node = 0; node < heap.nodeCount; node++) counts[node + 1] += counts[node];
  const first = counts.slice();
  const list = new Uint32Array(first[heap.nodeCount] * 2);
  const fill = first.slice();
  for (let node = 0; node < heap.nodeCount; node++) {
    for (let edge = heap.firstEdge[node]; edge < heap.firstEdge[node + 1]; edge += 3) {
      if (!kept(edge)) continue;
      const to = raw.edges[edge + 2] / heap.nodeFieldCount;
      list[fill[to] * 2] = node;
      list[fill[to] * 2 + 1] = edge;
      fill[to]++;
    }
  }
  return { first, list };
}

/** A path from the node towards a root through its first retainers not yet on the path. */
function retainerPath(heap: Heap, retainers: Retainers, target: number): string {
  const { raw } = heap;
  const steps: string[] = [];
  const seen = new Set<number>([target]);
  let current = target;
  for (let depth = 0; depth < 16 && current !== 0; depth++) {
    let found = -1;
    for (let at = retainers.first[current]; at < retainers.first[current + 1]; at++) {
      if (!seen.has(retainers.list[at * 2])) {
        found = at;
        break;
      }
    }
    if (found < 0) break;
    const from = retainers.list[found * 2];
    const edge = retainers.list[found * 2 + 1];
    const edgeType = heap.edgeTypes[raw.edges[edge]];
    const nameOrIndex = raw.edges[edge + 1];
    const label =
      edgeType === 'element' || edgeType === 'hidden'
        ? `[${nameOrIndex}]`
        : raw.strings[nameOrIndex];
    steps.push(`${heap.groupOf(from)} .${label}`);
    seen.add(from);
    current = from;
  }
  return `${heap.groupOf(target)} ← ${steps.join(' ← ')}`;
}

function main(): void {
  const args = process.argv.slice(2);
  const pathsAt = args.indexOf('--paths');
  const paths = pathsAt >= 0 ? Number(args.splice(pathsAt, 2)[1]) : 3;
  const [first, second] = args;
  if (!first) throw new Error('usage: heap-summary.ts A.heapsnapshot [B.heapsnapshot]');
  const a = load(first);
  const groupsA = groups(a);
  const total = (map: Map<string, Group>) =>
    [...map.values()].reduce((sum, group) => sum + group.bytes, 0);
  if (!second) {
    process.stdout.write(
      `${basename(first)}: ${mib(total(groupsA))} MiB in ${a.nodeCount} objects\n`,
    );
    const top = [...groupsA].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, 40);
    for (const [key, group] of top) {
      process.stdout.write(
        `${mib(group.bytes).padStart(9)} MiB ${String(group.count).padStart(9)}  ${key}\n`,
      );
    }
    return;
  }
  const idsA = new Set<number>();
  for (let node = 0; node < a.nodeCount; node++) idsA.add(a.id(node));
  a.raw.nodes = [];
  a.raw.edges = [];
  const b = load(second);
  const groupsB = groups(b);
  process.stdout.write(
    `${basename(first)}: ${mib(total(groupsA))} MiB; ${basename(second)}: ${mib(total(groupsB))} MiB\n\ngrowth by group (MiB, objects):\n`,
  );
  const growth = [...groupsB]
    .map(([key, group]) => {
      const before = groupsA.get(key) ?? { count: 0, bytes: 0 };
      return {
        key,
        bytes: group.bytes - before.bytes,
        count: group.count - before.count,
        after: group,
      };
    })
    .sort((x, y) => y.bytes - x.bytes);
  for (const row of growth.slice(0, 30)) {
    process.stdout.write(
      `${mib(row.bytes).padStart(9)} ${String(row.count).padStart(9)}  (now ${mib(row.after.bytes)} MiB, ${row.after.count})  ${row.key}\n`,
    );
  }
  process.stdout.write(
    '\nretainers of objects new in the second snapshot, largest groups first:\n',
  );
  const retainers = retainersOf(b);
  for (const row of growth.slice(0, paths)) {
    let shown = 0;
    for (let node = b.nodeCount - 1; node >= 0 && shown < 2; node--) {
      if (b.groupOf(node) === row.key && !idsA.has(b.id(node))) {
        process.stdout.write(`- ${retainerPath(b, retainers, node)}\n`);
        shown++;
        node -= Math.floor(b.nodeCount / 7);
      }
    }
  }
}

main();
