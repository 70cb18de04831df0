/** docs/rules.md, expenses: the first row with a keyword present as a whole word wins. */
export const EXPENSE_CATEGORY_RULES: ReadonlyArray<readonly [string, readonly string[]]> = [
  [
    'Travel',
    ['flight', 'airfare', 'airline', 'hotel', 'taxi', 'uber', 'train', 'airbnb', 'lodging'],
  ],
  ['Meals', ['lunch', 'dinner', 'breakfast', 'restaurant', 'meal', 'coffee', 'catering']],
  ['Software', ['software', 'subscription', 'saas', 'license', 'hosting', 'domain', 'cloud']],
  ['Office Supplies', ['stationery', 'paper', 'printer', 'ink', 'toner', 'pens']],
  ['Equipment', ['laptop', 'computer', 'monitor', 'furniture', 'hardware']],
  ['Utilities', ['electricity', 'water', 'internet', 'utility', 'power']],
  ['Rent', ['rent', 'lease']],
  ['Marketing', ['advertising', 'ads', 'marketing', 'promotion', 'campaign']],
  ['Professional Services', ['legal', 'lawyer', 'accountant', 'accounting', 'consulting', 'audit']],
  ['Vehicle', ['fuel', 'petrol', 'diesel', 'parking', 'mileage']],
];

export const DEFAULT_EXPENSE_CATEGORY = 'General';

export const EXPENSE_CATEGORIES: readonly string[] = [
  ...EXPENSE_CATEGORY_RULES.map(([category]) => category),
  DEFAULT_EXPENSE_CATEGORY,
];

/** A keyword is a whole word when no letter, digit or underscore touches it on either side. */
const CATEGORY_PATTERNS = EXPENSE_CATEGORY_RULES.map(
  ([category, keywords]) =>
    [
      category,
      new RegExp(`(?<![\\p{L}\\p{N}_])(?:${keywords.join('|')})(?![\\p{L}\\p{N}_])`, 'iu'),
    ] as const,
);

export function categorizeExpense(description: string, vendor: string): string {
  const text = `${description}\n${vendor}`;
  return (
    CATEGORY_PATTERNS.find(([, pattern]) => pattern.test(text))?.[0] ?? DEFAULT_EXPENSE_CATEGORY
  );
}
