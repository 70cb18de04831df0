/** An unexpected error as it may be logged. */
export interface LoggableError {
  type: string;
  code?: string;
  frames: string[];
}

/**
 * The class, code and stack frames of an error, without its message: driver messages quote the
 * values of the statement that failed (`Duplicate entry 'ada@example.com'`), which is customer
 * data, and the first line of a stack repeats the message.
 */
export function describeUnexpectedError(error: unknown): LoggableError {
  if (!(error instanceof Error))
    return { type: error === null ? 'null' : typeof error, frames: [] };
  const described: LoggableError = {
    type: error.constructor.name,
    frames: stackFrames(error),
  };
  const code = errorCode(error) ?? errorCode((error as { driverError?: unknown }).driverError);
  if (code !== undefined) described.code = code;
  return described;
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
}

/**
 * The stack's trailing run of `at …` lines. V8 starts the stack with `name: message`, and a
 * message may span lines, even ones that look like frames, so the header is cut off first.
 */
function stackFrames(error: Error): string[] {
  const stack = error.stack ?? '';
  const header = String(error);
  const lines = (stack.startsWith(header) ? stack.slice(header.length) : stack).split('\n');
  const frames: string[] = [];
  for (let index = lines.length - 1; index >= 0 && /^\s+at /.test(lines[index]); index -= 1) {
    frames.unshift(lines[index].trim());
  }
  return frames;
}
