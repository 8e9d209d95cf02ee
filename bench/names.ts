/**
 * Deterministic synthetic patients. Row i gets LAST_NAMES[i % 500] and FIRST_NAMES[floor(i / 500) % 200],
 * so every last name matches exactly 2,000 of 1,000,000 rows, spread evenly over the id range (an
 * index lookup by last name touches scattered table pages, as in real data), every first name 5,000.
 */

// ~200 common given names (the `contains` scenario searches a substring of some of them).
export const FIRST_NAMES = `
Aaron Abigail Adam Adrian Aidan Alan Albert Alexander Alice Alicia Alison Amanda Amber Amelia Amy Andrea
Andrew Angela Anna Anne Annie Anthony Arthur Ashley Audrey Barbara Benjamin Beth Betty Brandon Brenda Brian
Bridget Caleb Cameron Carl Carol Caroline Catherine Charles Charlotte Chloe Christine Christopher Claire Clara
Colin Connor Craig Daniel David Deborah Denise Diana Dominic Donald Dorothy Douglas Dylan Edward Eleanor Elijah
Elizabeth Ella Emily Emma Eric Ethan Evelyn Fiona Frances Frank Freya Gabriel Gary George Georgia Grace Graham
Gregory Hannah Harold Harry Heather Helen Henry Holly Ian Isaac Isabel Jack Jacob James Jane Janet Jason Jean
Jennifer Jeremy Jessica Joan Joanna Joanne John Jonathan Joseph Joshua Joyce Judith Julia Julian Justin Karen
Katherine Keith Kenneth Kevin Kimberly Laura Lauren Leah Leanne Leo Leon Lily Linda Lisa Logan Louise Lucas Lucy
Luke Lydia Margaret Maria Marie Mark Martha Martin Mary Matthew Megan Melissa Michael Michelle Molly Nancy Natalie
Nathan Neil Nicholas Nicole Noah Oliver Olivia Oscar Owen Patricia Patrick Paul Pauline Peter Philip Rachel
Rebecca Richard Robert Roger Rose Ruby Russell Ruth Ryan Samantha Samuel Sandra Sarah Scott Sean Sharon Simon
Sophie Stephen Steven Susan Suzanne Teresa Thomas Timothy Tracy Trevor Victoria Vincent Walter William Zoe Abel
Agnes Alfred Bernard
`
  .trim()
  .split(/\s+/);

// 500 distinct surnames built from English place-name parts (25 x 20), e.g. Ashford, Blackwood.
const STEMS =
  'Ash Black Brad Brook Burn Chad Cole Crom Dal Dun Fair Gold Green Hart Holm Kings Lang Mar New Oak Red Shel Stan West Wins'.split(
    ' ',
  );
const ENDINGS =
  'ford wood ley ton field well by worth ham stead ridge more shaw cott wick burn den combe gate land'.split(' ');
export const LAST_NAMES = STEMS.flatMap((stem) => ENDINGS.map((end) => stem + end));

if (new Set(FIRST_NAMES).size !== 200 || new Set(LAST_NAMES).size !== 500) {
  throw new Error(
    `bench/names.ts: expected 200 distinct first and 500 distinct last names, got ${new Set(FIRST_NAMES).size}/${new Set(LAST_NAMES).size}`,
  );
}

export const firstNameOf = (i: number) => FIRST_NAMES[Math.floor(i / LAST_NAMES.length) % FIRST_NAMES.length];
export const lastNameOf = (i: number) => LAST_NAMES[i % LAST_NAMES.length];
