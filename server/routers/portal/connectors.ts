/**
 * AI connectors in the portal: the consent screen of the OAuth authorization endpoint (any signed-in
 * member sees it; connecting needs Connect AI apps, which the owner always has), and the connectors
 * with revocation: a member's own with Connect AI apps, everyone's with Manage everyone's AI apps.
 */
import { z } from 'zod';
import { can } from '../../auth/permissions';
import { ApiError } from '../../errors';
import {
  approve,
  checkAuthorizationRequest,
  denial,
  everApproved,
  listConnectors,
  mayConnect,
  revokeConnector,
  RedirectedError,
  redirectWith,
  UntrustedRequest,
} from '../../oauth/grants';
import { oauthUrls } from '../../oauth/urls';
import type { Ctx, MemberPrincipal } from '../../context';
import { router } from '../../trpc';
import { memberProcedure, permitted } from './base';
import { recordId } from '../../resources/fields';

/** The authorization request, as the query string the authorization endpoint forwarded to the consent page. */
const consentInput = z.strictObject({ query: z.string().max(8000) });
const SCOPE_TEXT: Record<string, string> = {
  'mcp:read':
    "Read this clinic's patients, appointments, billing and reference data, as you, with your role's permissions and record scope",
};

const urlsOf = (ctx: Ctx) => oauthUrls(ctx.baseUrl.replace(/\/v3\/api$/, ''));

/** The checked request; a request that cannot be trusted is refused here, never redirected. */
async function requestOf(ctx: Ctx, query: string) {
  const params = new URLSearchParams(query);
  try {
    return {
      ok: true as const,
      req: await checkAuthorizationRequest(
        ctx.db,
        ctx.account,
        urlsOf(ctx),
        params,
        ctx.portal?.allowPrivateWebhooks ?? false,
      ),
    };
  } catch (err) {
    if (err instanceof UntrustedRequest)
      throw new ApiError('invalid_input', `This connection request cannot be used: ${err.message}`);
    if (err instanceof RedirectedError) {
      return {
        ok: false as const,
        redirect: redirectWith(
          params.get('redirect_uri')!,
          { error: err.error, error_description: err.description, state: params.get('state') },
          urlsOf(ctx),
        ),
      };
    }
    throw err;
  }
}

/**
 * What an app connected by this member would see, in their terms (the consent said only "with your
 * role's permissions and record scope"): which areas their role reads, and how far its record scope goes.
 */
function whatYouSee(member: MemberPrincipal): string {
  const areas = (
    [
      ['patients.read', 'patients'],
      ['appointments.read', 'appointments'],
      ['billing.read', 'billing'],
    ] as const
  )
    .filter(([p]) => can(member, p))
    .map(([, area]) => area);
  const reads = areas.length
    ? `your role reads ${areas.join(', ').replace(/, ([^,]*)$/, ' and $1')}`
    : 'your role reads no clinic records';
  const scope =
    member.record_scope === 'own_calendar'
      ? 'only the appointments of your own calendar, and the patients in them'
      : member.record_scope === 'own_patients'
        ? 'only patients who have an appointment with you, and their records'
        : 'every record of the clinic in those areas';
  return `As ${member.name}, ${reads}: ${areas.length ? scope : 'the app would see only the clinic’s reference data (practitioners, locations, appointment types)'}.`;
}

/** Connect AI apps: one's own apps. Manage everyone's AI apps: every member's (the owner has both). */
const manage = permitted('connectors.manage', 'connectors.manage_all');

export const connectorsRouter = router({
  describe: memberProcedure.input(consentInput).query(async ({ ctx, input }) => {
    const checked = await requestOf(ctx, input.query);
    if (!checked.ok) return { valid: false as const, redirect: checked.redirect };
    const { req } = checked;
    return {
      valid: true as const,
      client_name: req.client.name,
      client_id: req.client.client_id,
      redirect_host: new URL(req.redirectUri).host || req.redirectUri.split(':')[0],
      scopes: req.scope.split(' ').map((s) => ({ scope: s, description: SCOPE_TEXT[s] ?? s })),
      sees: whatYouSee(ctx.member),
      // The name is the app's own claim at registration: said with caution when no one here connected it before.
      known: await everApproved(ctx.db, ctx.account.id, req.client.client_id),
      can_connect: mayConnect(ctx.member),
      clinic: ctx.account.name,
    };
  }),
  approve: memberProcedure.input(consentInput).mutation(async ({ ctx, input }) => {
    const checked = await requestOf(ctx, input.query);
    if (!checked.ok) return { redirect: checked.redirect };
    return { redirect: await approve(ctx.db, ctx.account, ctx.member, ctx.actor, checked.req, urlsOf(ctx), ctx.now()) };
  }),
  /**
   * The member says no. The browser goes back to the app only at an address of an app someone in this
   * clinic has approved before: anyone may register an app with any return address, and a Deny must not
   * send a member there (redirect null: the page says nothing was connected).
   */
  deny: memberProcedure.input(consentInput).mutation(async ({ ctx, input }) => {
    const checked = await requestOf(ctx, input.query);
    if (!checked.ok) return { redirect: checked.redirect };
    const known = await everApproved(ctx.db, ctx.account.id, checked.req.client.client_id);
    return { redirect: known ? denial(checked.req, urlsOf(ctx)) : null };
  }),
  /** The member's own connected apps, or every member's with Manage everyone's AI apps. */
  list: manage.query(async ({ ctx }) => {
    const everyone = can(ctx.member, 'connectors.manage_all');
    return {
      data: await listConnectors(ctx.db, ctx.account.id, everyone ? undefined : ctx.member.id),
      everyone,
      mcp_url: urlsOf(ctx).resource,
    };
  }),
  revoke: manage.input(z.strictObject({ id: recordId })).mutation(async ({ ctx, input }) => {
    const onlyOf = can(ctx.member, 'connectors.manage_all') ? undefined : ctx.member.id;
    await revokeConnector(ctx.db, ctx.account, ctx.actor, input.id, ctx.now(), onlyOf);
    return { revoked: true };
  }),
});
