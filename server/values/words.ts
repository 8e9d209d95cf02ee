/** Nouns in sentences people read (OpenAPI summaries, event descriptions, refusals): the article and the count. */

/** "an appointment", "a patient". */
export const withArticle = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

/** "1 message", "2 messages"; `many` for irregular plurals ("2 practitioner offerings"). */
export const counted = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
