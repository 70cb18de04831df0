/*
 * A cache of measured or shaped texts, shared by every document of the process and bounded by
 * the bytes its entries take, not by their number: documents print texts of any length (a
 * 10,000-character note is one entry), so a count says nothing about memory. The least recently
 * used entries go first, so the words every document prints (labels, dates, the company's
 * name) stay while the words of one document age out.
 */

const MIB = 1024 * 1024;

/**
 * The budget of each text cache, in bytes as counted here (a little over what V8 spends: 14
 * MiB counted held 9.6 MiB of heap in `npm run bench:pdf`), whatever the documents print.
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

export class ByteBoundedCache<V> {
  /** In use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, { value: V; bytes: number }>();
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
    return this.entries.size;
  }

  /** The value kept for the key, or the one `make` makes now (kept while it fits). */
  get(key: string, make: () => V): V {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      // Moved to the end: most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return entry.value;
    }
    const value = make();
    const bytes = stringBytes(key) + this.sizeOf(value) + OBJECT_BYTES * 2;
    if (bytes > this.budgetBytes / 4) return value;
    this.entries.set(key, { value, bytes });
    this.used += bytes;
    for (const [oldest, { bytes: freed }] of this.entries) {
      if (this.used <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.used -= freed;
    }
    return value;
  }
}
