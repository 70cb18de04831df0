import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ModuleKind, ScriptTarget, transpileModule } from 'typescript';

/*
 * The processes under load: the built service (`node dist/main.js`) and the raw baseline, each
 * a child of its own so neither shares a CPU thread with autocannon; and a sampler of a
 * child's resident memory from /proc.
 */

const ROOT = resolve(__dirname, '../..');
const STOP_GRACE_MS = 10_000;

/** Every child still running, so an exit of any kind can take them down. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export function killAllChildren(): void {
  for (const child of running) child.kill('SIGKILL');
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export class ChildServer {
  private exited = false;

  private constructor(
    readonly name: string,
    readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {
    running.add(child);
    child.once('exit', () => {
      this.exited = true;
      running.delete(child);
    });
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.name} has no pid`);
    return this.child.pid;
  }

  /**
   * The built service, its output discarded (it logs a JSON line per request, as in
   * production), ready once GET /health/ready answers 200.
   */
  static async startService(options: {
    databaseUrl: string;
    apiKey: string;
    mailDir: string;
    /** Set over the defaults below (e.g. a worker and private webhook URLs for --webhook). */
    env?: Record<string, string>;
    /** Node's own options before the script (e.g. --heapsnapshot-signal for --soak). */
    nodeOptions?: string[];
    /** The checkout whose dist/main.js runs (another build: bench/builds-compared.ts). */
    root?: string;
  }): Promise<ChildServer> {
    const port = await freePort();
    const root = options.root ?? ROOT;
    const script = resolve(root, 'dist/main.js');
    const child = spawn(process.execPath, [...(options.nodeOptions ?? []), script], {
      cwd: root,
      stdio: 'ignore',
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: options.databaseUrl,
        API_KEYS: options.apiKey,
        RATE_LIMIT_PER_MINUTE: '0',
        OUTBOX_POLL_MS: '0',
        MAIL_DIR: options.mailDir,
        NODE_ENV: 'production',
        // Stops take a second, not the 5 s drain a load balancer needs.
        SHUTDOWN_DRAIN_MS: '0',
        ...options.env,
      },
    });
    const server = new ChildServer('service', child, `http://127.0.0.1:${port}`);
    await server.waitReady('/health/ready', {});
    return server;
  }

  /**
   * bench/raw-baseline.ts in a node of its own, compiled to JavaScript first so that its memory
   * is its own and not a TypeScript compiler's (as it would be under ts-node).
   */
  static async startBaseline(options: {
    databaseUrl: string;
    apiKey: string;
    workDir: string;
  }): Promise<ChildServer> {
    const source = await readFile(resolve(ROOT, 'bench/raw-baseline.ts'), 'utf8');
    const { outputText } = transpileModule(source, {
      compilerOptions: {
        module: ModuleKind.CommonJS,
        target: ScriptTarget.ES2022,
        esModuleInterop: true,
      },
    });
    await mkdir(options.workDir, { recursive: true });
    const script = resolve(options.workDir, 'raw-baseline.js');
    await writeFile(script, outputText);
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [script, '--database-url', options.databaseUrl, '--port', String(port)],
      {
        cwd: ROOT,
        stdio: ['ignore', 'ignore', 'inherit'],
        // The compiled file lives in a temp dir: its packages are the repository's.
        env: {
          PATH: process.env.PATH,
          NODE_PATH: resolve(ROOT, 'node_modules'),
          BASELINE_API_KEY: options.apiKey,
        },
      },
    );
    const server = new ChildServer('baseline', child, `http://127.0.0.1:${port}`);
    await server.waitReady('/v1/invoice/1', { authorization: `Bearer ${options.apiKey}` });
    return server;
  }

  /** A server started elsewhere, ready once `readyPath` answers 200. */
  static async adopt(
    name: string,
    child: ChildProcess,
    baseUrl: string,
    readyPath: string,
  ): Promise<ChildServer> {
    const server = new ChildServer(name, child, baseUrl);
    await server.waitReady(readyPath, {});
    return server;
  }

  private async waitReady(path: string, headers: Record<string, string>): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (this.exited) {
        throw new Error(`${this.name} exited with ${this.child.exitCode} before it was ready`);
      }
      try {
        const response = await fetch(`${this.baseUrl}${path}`, {
          headers,
          signal: AbortSignal.timeout(2000),
        });
        await response.arrayBuffer();
        if (response.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await delay(100);
    }
    throw new Error(`${this.name} was not ready within 120 s`);
  }

  /** SIGTERM, then SIGKILL if it has not exited within the grace period. */
  async stop(): Promise<void> {
    if (this.exited) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}

/** The MariaDB server's process id (its CPU is read like the service's), or null. */
export function mariadbPid(): number | null {
  try {
    const pid = Number(execFileSync('pidof', ['mariadbd'], { encoding: 'utf8' }).split(' ')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc/<pid>/stat. */
export async function cpuTimeMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) in parentheses; utime and stime are the
    // 14th and 15th fields, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Resident memory of a process, in MiB, from /proc/<pid>/status. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number } | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => {
      const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) / 1024 : 0;
    };
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return null;
  }
}

/**
 * Where a process's resident memory is, in MiB, from /proc/<pid>/smaps: the C heap's main arena
 * (the `[heap]` mapping glibc's malloc grows with brk), other anonymous mappings (V8's heap
 * pages, thread arenas, large mallocs), and mapped files (the node binary, libraries).
 */
export async function memoryMap(
  pid: number,
): Promise<{ mallocHeap: number; anonymous: number; files: number } | null> {
  try {
    const smaps = await readFile(`/proc/${pid}/smaps`, 'utf8');
    const kib = { mallocHeap: 0, anonymous: 0, files: 0 };
    let kind: keyof typeof kib = 'anonymous';
    for (const line of smaps.split('\n')) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) {
        const name = mapping[1].trim();
        kind =
          name === '[heap]'
            ? 'mallocHeap'
            : name === '' || name.startsWith('[')
              ? 'anonymous'
              : 'files';
      } else if (line.startsWith('Rss:')) {
        kib[kind] += Number(line.slice(4).trim().split(' ')[0]);
      }
    }
    return {
      mallocHeap: kib.mallocHeap / 1024,
      anonymous: kib.anonymous / 1024,
      files: kib.files / 1024,
    };
  } catch {
    return null;
  }
}

/**
 * VmRSS every 100 ms: the overall peak, and the peak of a window (`beginWindow` … `endWindow`)
 * such as the unpaged list. VmHWM (the kernel's own peak) is read at the end.
 */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private latest = 0;
  private windowPeak: number | null = null;
  peak = 0;

  constructor(private readonly pid: number) {}

  async start(): Promise<void> {
    await this.sample();
    this.timer = setInterval(() => void this.sample(), 100);
  }

  private async sample(): Promise<void> {
    const memory = await memoryOf(this.pid);
    if (!memory) return;
    this.latest = memory.rss;
    this.peak = Math.max(this.peak, memory.rss);
    if (this.windowPeak !== null) this.windowPeak = Math.max(this.windowPeak, memory.rss);
  }

  /** The RSS now. */
  async current(): Promise<number> {
    await this.sample();
    return this.latest;
  }

  /** Starts a window and answers the RSS just before it. */
  async beginWindow(): Promise<number> {
    await this.sample();
    this.windowPeak = this.latest;
    return this.latest;
  }

  async endWindow(): Promise<number> {
    await this.sample();
    const peak = this.windowPeak ?? this.latest;
    this.windowPeak = null;
    return peak;
  }

  /** Stops sampling; answers VmHWM, or the sampled peak when the process is gone. */
  async stop(): Promise<number> {
    clearInterval(this.timer);
    const memory = await memoryOf(this.pid);
    if (memory) this.peak = Math.max(this.peak, memory.rss);
    return memory ? Math.max(memory.hwm, this.peak) : this.peak;
  }
}
