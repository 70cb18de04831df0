/*
 * Whether the baseline answers exactly what the service answers: the parsed bodies deep-equal,
 * then the texts themselves (key order, and how many digits each number is written with).
 */

export interface BodyComparison {
  /** null when the parsed bodies are equal. */
  parsedDifference: string | null;
  /** null when the texts are equal. */
  textDifference: string | null;
}

export function compareBodies(serviceText: string, baselineText: string): BodyComparison {
  let parsedDifference: string | null;
  try {
    parsedDifference = firstDifference(JSON.parse(serviceText), JSON.parse(baselineText), '$');
  } catch (error) {
    parsedDifference = `a body is not JSON: ${String(error)}`;
  }
  return {
    parsedDifference,
    textDifference: serviceText === baselineText ? null : textDifference(serviceText, baselineText),
  };
}

/** The path of the first place two parsed JSON values differ, with both values. */
export function firstDifference(service: unknown, baseline: unknown, path: string): string | null {
  if (Array.isArray(service) && Array.isArray(baseline)) {
    for (let index = 0; index < Math.max(service.length, baseline.length); index++) {
      if (index >= service.length || index >= baseline.length) {
        return `${path}: service has ${service.length} items, baseline ${baseline.length}`;
      }
      const found = firstDifference(service[index], baseline[index], `${path}[${index}]`);
      if (found) return found;
    }
    return null;
  }
  if (isRecord(service) && isRecord(baseline)) {
    for (const key of new Set([...Object.keys(service), ...Object.keys(baseline)])) {
      if (!(key in baseline)) return `${path}.${key}: only the service answers it`;
      if (!(key in service)) return `${path}.${key}: only the baseline answers it`;
      const found = firstDifference(service[key], baseline[key], `${path}.${key}`);
      if (found) return found;
    }
    return null;
  }
  if (Object.is(service, baseline)) return null;
  return `${path}: service ${JSON.stringify(service)}, baseline ${JSON.stringify(baseline)}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textDifference(service: string, baseline: string): string {
  let at = 0;
  while (at < service.length && service[at] === baseline[at]) at++;
  const from = Math.max(0, at - 60);
  return (
    `texts differ at character ${at}: service …${service.slice(from, at + 60)}… ` +
    `baseline …${baseline.slice(from, at + 60)}…`
  );
}
