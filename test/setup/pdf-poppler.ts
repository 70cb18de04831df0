import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/*
 * The text poppler extracts (pdftotext, as Evince, Okular and most Linux viewers read a PDF),
 * beside pdf.js's (pdf-text.ts): poppler honours /ActualText, pdf.js reads ToUnicode only, so a
 * document must satisfy both. Needs Debian's poppler-utils (.ci/run installs it).
 */

const run = promisify(execFile);

/**
 * pdftotext writes each right-to-left run of a left-to-right page between U+202B and U+202C
 * (RLE … PDF), its own way of saying the run's direction: they are not in the document.
 */
const POPPLER_DIRECTION_MARKS = /[\u202a-\u202e]/g;

/** Every page's text as `pdftotext -enc UTF-8` gives it, pages joined by a form feed. */
export async function popplerText(bytes: Buffer): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'pdftotext-'));
  try {
    const file = join(folder, 'document.pdf');
    await writeFile(file, bytes);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], {
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') {
        throw new Error(
          'pdftotext is missing: install poppler-utils (apt-get install poppler-utils)',
        );
      }
      throw error;
    });
    return stdout;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** poppler's text without the direction marks it adds around right-to-left runs. */
export function withoutDirectionMarks(text: string): string {
  return text.replace(POPPLER_DIRECTION_MARKS, '');
}

/** The files embedded in a PDF as poppler's pdfdetach saves them, by name. */
export async function popplerAttachments(bytes: Buffer): Promise<Map<string, Buffer>> {
  const folder = await mkdtemp(join(tmpdir(), 'pdfdetach-'));
  try {
    const file = join(folder, 'document.pdf');
    const saved = join(folder, 'attachments');
    await writeFile(file, bytes);
    await mkdir(saved);
    await run('pdfdetach', ['-saveall', '-o', saved, file]);
    const names = await readdir(saved);
    return new Map(
      await Promise.all(
        names.map(async (name) => [name, await readFile(join(saved, name))] as const),
      ),
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
