import type { DbHandle } from '../db/client';
import type { accounts } from '../db/schema';
import type { FileStore } from './files/store';

/** The tenant of a request, as stored (the invoice counter and timestamps are the domain's own business). */
export type Account = Omit<typeof accounts.$inferSelect, 'invoice_counter' | 'created_at' | 'updated_at'>;

export type Scope = 'read' | 'write';

/** Who is calling: for now an API key (integration); staff sessions and OAuth connectors come later. */
export interface Principal {
  type: 'api_key';
  id: number;
  name: string;
  scopes: Scope[];
}

export interface Ctx {
  db: DbHandle;
  files: FileStore;
  account: Account;
  principal: Principal;
  requestId: string;
  /** Absolute base URL of the API for this tenant, e.g. https://acme.neptune.example.com/v3/api */
  baseUrl: string;
  /** Test-only (createApp's `pause` option; no request can set it): see domain/write-context.ts. */
  pause?: PauseHook;
}

/** The critical sections of the domain: a check, then a write that must not be raced. */
export type CriticalSection = 'booking' | 'appointment_change' | 'allocation' | 'invoice_number';
/** Awaited inside a critical section, between its check and its write; tests use it to prove the locks. */
export type PauseHook = (section: CriticalSection) => Promise<void>;

