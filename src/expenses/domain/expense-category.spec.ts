import { categorizeExpense, DEFAULT_EXPENSE_CATEGORY } from './expense-category';

describe('categorizeExpense', () => {
  it.each([
    ['Flight to Berlin', '', 'Travel'],
    ['Team LUNCH', '', 'Meals'],
    ['Annual subscription', 'Acme', 'Software'],
    ['Toner cartridges', '', 'Office Supplies'],
    ['New laptop', '', 'Equipment'],
    ['Electricity bill', '', 'Utilities'],
    ['Office rent March', '', 'Rent'],
    ['Facebook ads', '', 'Marketing'],
    ['Annual audit', '', 'Professional Services'],
    ['Diesel', '', 'Vehicle'],
  ])('%s / %s is %s', (description, vendor, category) => {
    expect(categorizeExpense(description, vendor)).toBe(category);
  });

  it('matches whole words only', () => {
    expect(categorizeExpense('Parentheses', '')).toBe(DEFAULT_EXPENSE_CATEGORY); // not "rent"
    expect(categorizeExpense('Painkiller', '')).toBe(DEFAULT_EXPENSE_CATEGORY); // not "ink"
    expect(categorizeExpense('Trains', '')).toBe(DEFAULT_EXPENSE_CATEGORY); // not "train"
    expect(categorizeExpense('uber_eats', '')).toBe(DEFAULT_EXPENSE_CATEGORY);
  });

  it('treats punctuation as a word boundary', () => {
    expect(categorizeExpense('(taxi)', '')).toBe('Travel');
    expect(categorizeExpense("Uber's fee", '')).toBe('Travel');
    expect(categorizeExpense('power-supply', '')).toBe('Utilities');
  });

  it('reads the vendor too', () => {
    expect(categorizeExpense('Monthly bill', 'City Water')).toBe('Utilities');
  });

  it('takes the first row of the table, not the first word of the text', () => {
    // "coffee" (Meals) comes before "hotel" in the text, but Travel is the earlier row.
    expect(categorizeExpense('Coffee at the hotel', '')).toBe('Travel');
  });

  it('does not join description and vendor into one word', () => {
    expect(categorizeExpense('paper', '')).toBe('Office Supplies');
    expect(categorizeExpense('news', 'paper')).toBe('Office Supplies');
    expect(categorizeExpense('Ren', 't')).toBe(DEFAULT_EXPENSE_CATEGORY);
  });

  it('falls back to General', () => {
    expect(categorizeExpense('Miscellaneous', 'Someone')).toBe('General');
  });
});
