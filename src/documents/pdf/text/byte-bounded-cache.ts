/*
 * A cache of measured or shaped texts, shared by every document of the process and bounded by
 * the bytes its entries take, not by their number: documents print texts of any length (a
 * 10,000-character note is one entry), so a count says nothing about memory. Entries not asked
 * for again go first, so the words every document prints (labels, dates, the company's name)
 * stay while the words of one document age out.
 */

const MIB = 1024 * 1024;

/**
 * The budget of each text cache, in bytes as counted here (a little over what V8 spends: 14
 * MiB counted held 11 MiB of heap in `npm run bench:pdf`), whatever the documents print.
 */
export const TEXT_CACHE_BYTES = {
  /** Words shaped by fontkit, every font (document-font.ts). */
  shaped: 8 * MIB,
  /** Words' advances, every face (font-faces.ts). */
  measured: 2 * MIB,
  /** Paragraphs laid out at a style and width (text-layout.ts). */
  laidOut: 4 * MIB,
};

/** What a string costs on the V8 heap, about: a header and two bytes a UTF-16 unit at most. */
export function stringBytes(text: string): number {
  return 24 + 2 * text.length;
}

/** What a small plain object or array costs, about, beside its fields' own values. */
export const OBJECT_BYTES = 32;
/** One field or element: a pointer. */
export const FIELD_BYTES = 8;

interface Entry<V> {
  value: V;
  bytes: number;
  /** Asked for since it was last passed over for eviction. */
  used: boolean;
}

/** An entry in the order of eviction: the scope's map it is kept in, and its key. */
interface Queued<V> {
  entries: Map<string, Entry<V>>;
  key: string;
  entry: Entry<V>;
}

/**
 * Entries are kept per scope (a font, a face: its keys are its texts, used as they are, so a
 * lookup builds no string) under one budget for all scopes. Eviction is second chance: the
 * oldest entry goes unless it was asked for since it was last passed over, in which case it is
 * passed over once more, so a hit costs a map lookup and a flag, not a reordering.
 */
export class ByteBoundedCache<V> {
  private readonly scopes = new Map<object, Map<string, Entry<V>>>();
  /** Entries from oldest (at `head`) to newest; slots before `head` are emptied. */
  private queue: Array<Queued<V> | undefined> = [];
  private head = 0;
  private used = 0;

  /**
   * `sizeOf` is the entry's size in bytes, about, key excluded; an entry larger than a quarter
   * of the budget is answered but not kept.
   */
  constructor(
    readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.queue.length - this.head;
  }

  /**
   * The value kept for the key in the scope (by default the cache's one), or the one `make`
   * makes now (kept while it fits).
   */
  get(key: string, make: () => V, scope: object = this): V {
    let entries = this.scopes.get(scope);
    if (entries === undefined) {
      entries = new Map();
      this.scopes.set(scope, entries);
    }
    const kept = entries.get(key);
    if (kept !== undefined) {
      kept.used = true;
      return kept.value;
    }
    const value = make();
    const bytes = stringBytes(key) + this.sizeOf(value) + OBJECT_BYTES * 3;
    if (bytes > this.budgetBytes / 4) return value;
    const entry = { value, bytes, used: false };
    entries.set(key, entry);
    this.used += bytes;
    // Room is made among the older entries: the new one is queued after them.
    this.evict();
    this.queue.push({ entries, key, entry });
    return value;
  }

  private evict(): void {
    while (this.used > this.budgetBytes && this.head < this.queue.length) {
      const oldest = this.queue[this.head]!;
      this.queue[this.head++] = undefined;
      if (oldest.entry.used) {
        oldest.entry.used = false;
        this.queue.push(oldest);
      } else {
        oldest.entries.delete(oldest.key);
        this.used -= oldest.entry.bytes;
      }
    }
    // Drop the passed part of the queue once it is most of it.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}
