/**
 * A pattern for a listed value matched the way src/common/input-rules.ts matches it: each
 * listed spelling with its ASCII letters in either case, nothing around it, and nothing else.
 * `""` in the list makes the whole value optional. OpenAPI 3.0 patterns have no
 * case-insensitive flag, so each letter is a class: `Cash` → `[Cc][Aa][Ss][Hh]`.
 */
export function anyCasePattern(values: readonly string[]): string {
  const alternatives = values.filter((value) => value !== '').map(anyCaseText);
  const choice = `(?:${alternatives.join('|')})`;
  return values.includes('') ? `^${choice}?$` : `^${choice}$`;
}

function anyCaseText(value: string): string {
  return [...value]
    .map((character) => {
      const lower = character.toLowerCase();
      const upper = character.toUpperCase();
      if (/^[a-z]$/.test(lower) && lower !== upper) return `[${upper}${lower}]`;
      // `-` needs no escape outside a class, and escaping it is an error in Unicode mode.
      return character.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    })
    .join('');
}

/**
 * The values a pattern of anyCasePattern accepts, each in one of its spellings (letters upper
 * case), `""` first when it is optional; null for any other pattern. For tools that read the
 * document, such as the generated-input tests.
 */
export function listedValues(pattern: string): string[] | null {
  const match = /^\^\(\?:(.*)\)(\??)\$$/.exec(pattern);
  if (!match) return null;
  const values = match[1]
    .split('|')
    .map((alternative) =>
      alternative.replace(
        /\[([A-Z])[a-z]\]|\\(.)|(.)/g,
        (_, letter?: string, escaped?: string, plain?: string) => letter ?? escaped ?? plain ?? '',
      ),
    );
  const optional = match[2] === '?';
  const all = optional ? ['', ...values] : values;
  return anyCasePattern(all) === pattern ? all : null;
}
