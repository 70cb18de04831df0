import { disagreements, OpenApiDocument, Recorded } from './response-recorder';

/*
 * The answers of the service run as a process of its own (service-process.ts, and the
 * shutdown file's own start) are checked like every in-process answer (response-recorder.ts):
 * a file records them where it reads them, and when it ends (checkProcessAnswers, after all of
 * the file's own hooks: file-checks.ts for a file run alone, test-group.ts for each member of a
 * group) they are checked against the document the service served. A file that recorded
 * answers without a document to check them against fails.
 */

const recorded: Recorded[] = [];
let served: OpenApiDocument | null = null;

/** Reads the document a running service serves, once per file. */
export async function readServedDocument(url: string): Promise<void> {
  if (served) return;
  const response = await fetch(`${url}/docs/openapi.json`);
  if (response.status !== 200) {
    throw new Error(`${url}/docs/openapi.json answered ${response.status}, not the document`);
  }
  served = (await response.json()) as OpenApiDocument;
}

/** One answer as the file read it: its body is checked if it is JSON. */
export function recordAnswer(
  method: string,
  url: string,
  answer: { status: number; contentType: string | null | undefined; text: string },
): void {
  const type = (answer.contentType ?? '').split(';')[0].trim().toLowerCase();
  let body: unknown = answer.text;
  if (type === 'application/json') {
    try {
      body = JSON.parse(answer.text);
    } catch {
      // Left as text: the schema check names it.
    }
  }
  recorded.push({
    method: method.toUpperCase(),
    path: new URL(url, 'http://service.invalid').pathname,
    response: { status: answer.status, type, body },
  });
}

/** Checks the answers recorded since the last check, and forgets them and the document. */
export function checkProcessAnswers(): void {
  const answers = recorded.splice(0);
  const document = served;
  served = null;
  if (answers.length === 0) return;
  if (!document) throw new Error(`${answers.length} answers recorded, but no document read`);
  const problem = disagreements(document, answers);
  if (problem) throw problem;
}
