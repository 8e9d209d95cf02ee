/**
 * What a new password must be, after NIST SP 800-63B (rev. 4, §3.1.1.2): long enough (15 characters:
 * the password alone opens the portal when a member has no second factor), at most PASSWORD_MAX, any
 * characters at all (spaces and emoji included, compared after NFKC normalisation), no composition rules,
 * no periodic change; refused when it is among the most common passwords (the 49,000 of
 * @zxcvbn-ts/language-common, also with digits or symbols added at the end), one character repeated or
 * a run such as 123456…, or made of the member's email or the clinic's address.
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { invalid } from '../errors';

export const PASSWORD_MIN = 15;
export const PASSWORD_MAX = 200;

const COMMON = new Set((dictionary as Record<string, string[]>)['passwords-common']);
/** Runs a password may not be part of, forwards or backwards (doubled: a run may wrap around). */
const SEQUENCES = ['0123456789', 'abcdefghijklmnopqrstuvwxyz', 'qwertyuiopasdfghjklzxcvbnm'].flatMap((s) => {
  const twice = s + s;
  return [twice, [...twice].reverse().join('')];
});

/** Why a password cannot be used, or null. `context`: the member's email, the clinic's subdomain. */
export function passwordProblem(password: string, context: string[] = []): string | null {
  const chars = [...password.normalize('NFKC')];
  if (chars.length < PASSWORD_MIN)
    return `must be at least ${PASSWORD_MIN} characters (a few words you will remember work well)`;
  if (chars.length > PASSWORD_MAX) return `must be at most ${PASSWORD_MAX} characters`;
  const lower = chars.join('').toLowerCase();
  const core = lower.replace(/[\d\W_]+$/u, '');
  if (COMMON.has(lower) || (core.length >= 4 && COMMON.has(core)) || isRepeat(lower))
    return 'is one of the most common passwords: choose another';
  if (SEQUENCES.some((s) => s.includes(lower)) || new Set(chars).size < 4)
    return 'is too easy to guess (repeated or consecutive characters): choose another';
  const letters = (s: string) => s.toLowerCase().replace(/[\d\W_]+/gu, '');
  const words = context.flatMap((c) => [c, ...c.split(/[@.]/)]).map(letters);
  if (words.some((w) => w.length >= 4 && letters(lower) === w))
    return 'is made of your email or the clinic’s name: choose another';
  return null;
}

/** A common password written several times over ("passwordpasswordpassword"). */
function isRepeat(lower: string): boolean {
  for (let n = 1; n <= lower.length / 2; n++) {
    if (lower.length % n) continue;
    const unit = lower.slice(0, n);
    if (unit.repeat(lower.length / n) === lower && (n <= 4 || COMMON.has(unit))) return true;
  }
  return false;
}

/** 422 with the reason under `attribute` when the password cannot be used. */
export function checkPassword(password: string, context: string[] = [], attribute = 'password'): void {
  const problem = passwordProblem(password, context);
  if (problem) throw invalid(attribute, problem, 'validation_failed');
}
