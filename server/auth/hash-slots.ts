/**
 * Who may hash a password now. scrypt runs on libuv's thread pool, RUNNING at a time; a sign-in waits
 * its turn in its clinic's line, and the lines are served in turn (round robin), so a flood on one clinic
 * costs another clinic's sign-in one hash's wait, not the flood's. A clinic holds at most PER_CLINIC
 * sign-ins (running or waiting) and one email at most PER_EMAIL: past that the sign-in is refused at
 * once with 429, before any hashing, and the refusal counts against its address (server/auth/sign-in.ts).
 */
import { ApiError } from '../errors';

/** Hashes at once: libuv's default pool size (each hash takes ~50-100 ms). */
export const RUNNING = 4;
/** Sign-ins of one clinic running or waiting in one process. */
export const PER_CLINIC = 8;
/** Sign-ins of one email running or waiting in one process (a person types one password at a time). */
export const PER_EMAIL = 2;

export class HashSlots {
  private running = 0;
  /** Per clinic: its waiting sign-ins. Map order is the round: a served clinic goes to the back. */
  private lines = new Map<number, Array<() => void>>();
  /** Running or waiting sign-ins, per clinic and per clinic+email. */
  private held = new Map<string, number>();

  constructor(private readonly capacity = RUNNING) {}

  /** Resolves with the function that gives the slot back, once this sign-in may hash; or 429 at once. */
  async take(accountId: number, email: string): Promise<() => void> {
    const clinic = `c:${accountId}`;
    const person = `e:${accountId}:${email}`;
    if ((this.held.get(clinic) ?? 0) >= PER_CLINIC || (this.held.get(person) ?? 0) >= PER_EMAIL)
      throw new ApiError('rate_limited', 'Too many sign-ins at once: try again in a second', undefined, {
        headers: { 'Retry-After': '1' },
      });
    this.count(clinic, 1);
    this.count(person, 1);
    await new Promise<void>((start) => {
      const line = this.lines.get(accountId) ?? [];
      line.push(start);
      this.lines.set(accountId, line);
      this.next();
    });
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      this.count(clinic, -1);
      this.count(person, -1);
      this.next();
    };
  }

  private count(key: string, by: number) {
    const n = (this.held.get(key) ?? 0) + by;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
  }

  /** Starts waiting sign-ins while there is room, taking the clinics in turn. */
  private next() {
    while (this.running < this.capacity && this.lines.size) {
      const [accountId, line] = this.lines.entries().next().value!;
      this.lines.delete(accountId);
      const start = line.shift()!;
      if (line.length) this.lines.set(accountId, line);
      this.running++;
      start();
    }
  }
}

/** This process's slots. */
export const hashSlots = new HashSlots();
