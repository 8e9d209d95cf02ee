/** Who an MCP call acts as: the member who approved the connector, on their clinic. */
import type { DbHandle } from '../../db/client';
import type { Account, MemberPrincipal } from '../context';

export interface Connector {
  db: DbHandle;
  account: Account;
  member: MemberPrincipal;
  /** The REST base URL of the clinic (records carry links there). */
  baseUrl: string;
  grantId: number;
  clientId: string;
}
