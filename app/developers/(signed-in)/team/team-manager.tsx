'use client';
/**
 * Team members (add with a set-up link, change role or practitioner link, send a reset link, reset two-factor,
 * end sessions, deactivate, reactivate, hand over ownership: each change that takes something away asks
 * first), the clinic's two-factor rule, and what each role may do.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../../_components/confirm-dialog';
import {
  Alert,
  Badge,
  Button,
  Card,
  Cell,
  Field,
  InlineError,
  LoadFailed,
  Loading,
  Row,
  Select,
  Table,
  TextInput,
} from '../../_components/ui';
import { Time } from '../../_components/time';
import { useFormAction } from '../../_lib/form';
import { LinkNotice, type LinkDelivery } from './link-notice';
import { portal, portalError } from '../../_lib/trpc';

type Team = Awaited<ReturnType<typeof portal.team.list.query>>;
type Assignable = 'admin' | 'practitioner' | 'receptionist';
type Scope = 'all' | 'own_patients' | 'own_calendar';
const ROLES: Record<Assignable, string> = {
  admin: 'Admin',
  practitioner: 'Practitioner',
  receptionist: 'Receptionist',
};
const SCOPES: Record<Scope, string> = {
  all: 'All records',
  own_patients: 'Own patients only',
  own_calendar: 'Own calendar only',
};

function useRefresh() {
  const queries = useQueryClient();
  return () => queries.invalidateQueries({ queryKey: ['team'] });
}

function AddMember({ team }: { team: Team }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Assignable>('receptionist');
  const [practitioner, setPractitioner] = useState('');
  const [created, setCreated] = useState<{ name: string; email: string; link: LinkDelivery } | null>(null);
  const refresh = useRefresh();
  const linked = new Map(team.members.flatMap((m) => (m.practitioner_id ? [[m.practitioner_id, m.name]] : [])));
  const { submit, pending, error } = useFormAction(
    () => portal.team.create.mutate({ name, email, role, practitioner_id: practitioner ? Number(practitioner) : null }),
    (r) => {
      setCreated({ name: r.member.name, email: r.member.email, link: r.link });
      // The whole form starts again: a new member never inherits the last one's role or practitioner.
      setName('');
      setEmail('');
      setRole('receptionist');
      setPractitioner('');
      void refresh();
    },
  );
  return (
    <Card title="Add a member">
      {created && (
        <div className="mb-4">
          <LinkNotice
            id="member-link"
            lead={`${created.name} (${created.email}) was added.`}
            name={created.name}
            link={created.link}
          />
        </div>
      )}
      <form
        onSubmit={submit}
        noValidate
        className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] lg:items-end"
      >
        <Field id="member-name" label="Name" error={error?.errors.name?.[0]}>
          <TextInput
            id="member-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={error?.errors.name?.[0]}
          />
        </Field>
        <Field id="member-email" label="Email" error={error?.errors.email?.[0]}>
          <TextInput
            id="member-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={error?.errors.email?.[0]}
          />
        </Field>
        <Field id="member-role" label="Role">
          <Select id="member-role" value={role} onChange={(e) => setRole(e.target.value as Assignable)}>
            {Object.entries(ROLES).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="member-practitioner" label="Practitioner (optional)" error={error?.errors.practitioner_id?.[0]}>
          <Select id="member-practitioner" value={practitioner} onChange={(e) => setPractitioner(e.target.value)}>
            <option value="">None</option>
            {team.practitioners.map((p) => (
              <option key={p.id} value={p.id} disabled={linked.has(p.id)}>
                {p.name} {p.last_name}
                {linked.has(p.id) ? ` (linked to ${linked.get(p.id)})` : ''}
              </option>
            ))}
          </Select>
        </Field>
        <Button type="submit" disabled={pending}>
          {pending ? 'Adding…' : 'Add member'}
        </Button>
      </form>
      {error && !Object.keys(error.errors).length && (
        <div className="mt-3">
          <Alert>{error.message}</Alert>
        </div>
      )}
    </Card>
  );
}

function MemberRow({ m, me, team }: { m: Team['members'][number]; me: { id: number; role: string }; team: Team }) {
  // The role chosen in the select, not yet confirmed: arrow keys move through roles without asking at
  // each step (review point 23); "Change role" asks once a role is chosen.
  const [draftRole, setDraftRole] = useState<Assignable | null>(null);
  const [pendingRole, setPendingRole] = useState<Assignable | null>(null);
  const [link, setLink] = useState<LinkDelivery | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const roleSelect = useRef<HTMLSelectElement>(null);
  const refresh = useRefresh();
  const isOwner = m.role === 'owner';
  const youAreOwner = me.role === 'owner';
  const changeRole = async () => {
    await portal.team.setRole.mutate({ user_id: m.id, role: pendingRole! });
    setDraftRole(null);
    await refresh();
  };
  const deactivate = async () => {
    await portal.team.setActive.mutate({ user_id: m.id, active: false });
    await refresh();
  };
  const reactivate = useMutation({
    mutationFn: () => portal.team.setActive.mutate({ user_id: m.id, active: true }),
    onSuccess: () => void refresh(),
  });
  const sendLink = useMutation({
    mutationFn: () => portal.team.sendLink.mutate({ user_id: m.id }),
    onSuccess: (r) => setLink(r),
  });
  const linkPractitioner = useMutation({
    mutationFn: (id: number | null) => portal.team.setPractitioner.mutate({ user_id: m.id, practitioner_id: id }),
    onSuccess: () => void refresh(),
  });
  const resetFactor = async () => {
    await portal.team.resetSecondFactor.mutate({ user_id: m.id });
    setDone(`${m.name}'s two-factor sign-in was reset and their sessions ended.`);
    await refresh();
  };
  const endSessions = async () => {
    const { ended } = await portal.team.endSessions.mutate({ user_id: m.id });
    setDone(`${ended} session(s) of ${m.name} ended.`);
  };
  const others = new Map(
    team.members.flatMap((o) => (o.practitioner_id && o.id !== m.id ? [[o.practitioner_id, o.name]] : [])),
  );
  const transfer = async () => {
    await portal.team.transferOwnership.mutate({ user_id: m.id });
    // Every page's permissions change with the handover: start again from the server's view of this member.
    window.location.reload();
  };
  return (
    <Row>
      <Cell label="Member">
        <span className="font-medium">{m.name}</span>
        {m.id === me.id && <span className="text-xs text-slate-500"> (you)</span>}
        <span className="block text-xs text-slate-500">{m.email}</span>
      </Cell>
      <Cell label="Role">
        {isOwner ? (
          <Badge tone="slate">Owner</Badge>
        ) : (
          <>
            <label htmlFor={`role-${m.id}`} className="sr-only">
              Role of {m.name}
            </label>
            <div className="flex flex-wrap items-center gap-2">
              <Select
                ref={roleSelect}
                id={`role-${m.id}`}
                value={draftRole ?? m.role}
                onChange={(e) => setDraftRole(e.target.value === m.role ? null : (e.target.value as Assignable))}
              >
                {Object.entries(ROLES).map(([k, label]) => (
                  <option key={k} value={k}>
                    {label}
                  </option>
                ))}
              </Select>
              {draftRole && (
                <Button
                  tone="secondary"
                  onClick={() => setPendingRole(draftRole)}
                  aria-label={`Change role of ${m.name}`}
                >
                  Change role
                </Button>
              )}
            </div>
            <ConfirmDialog
              open={pendingRole !== null}
              // Cancelled (Escape, Cancel): the select shows the saved role again.
              onOpenChange={(open) => !open && (setPendingRole(null), setDraftRole(null))}
              returnFocus={roleSelect}
              title={`Make ${m.name} ${pendingRole ? article(ROLES[pendingRole]) : ''}?`}
              confirm={`Make ${m.name} ${pendingRole ? article(ROLES[pendingRole]) : ''}`}
              tone="primary"
              onConfirm={changeRole}
            >
              <p>
                {m.name} becomes {pendingRole ? article(ROLES[pendingRole]) : ''}: from their next request they can do
                what {pendingRole ? `${article(ROLES[pendingRole])}` : ''} may do in this clinic (listed under Roles
                below), and no more.
              </p>
            </ConfirmDialog>
          </>
        )}
      </Cell>
      <Cell label="Practitioner record">
        <label htmlFor={`practitioner-${m.id}`} className="sr-only">
          Practitioner record of {m.name}
        </label>
        <Select
          id={`practitioner-${m.id}`}
          value={m.practitioner_id ?? ''}
          disabled={linkPractitioner.isPending}
          onChange={(e) => linkPractitioner.mutate(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">None</option>
          {team.practitioners.map((p) => (
            <option key={p.id} value={p.id} disabled={others.has(p.id)}>
              {p.name} {p.last_name}
              {others.has(p.id) ? ` (linked to ${others.get(p.id)})` : ''}
            </option>
          ))}
        </Select>
        {linkPractitioner.isError && <InlineError message={portalError(linkPractitioner.error).message} />}
      </Cell>
      <Cell label="Status">
        <div className="flex flex-wrap gap-1">
          {m.active ? <Badge tone="green">Active</Badge> : <Badge tone="red">Deactivated</Badge>}
          {!m.password_set && <Badge tone="amber">No password yet</Badge>}
          {m.two_factor ? <Badge tone="green">Two-factor on</Badge> : <Badge tone="slate">Password only</Badge>}
        </div>
      </Cell>
      <Cell label="Last sign-in">{m.last_sign_in_at ? <Time iso={m.last_sign_in_at} /> : 'Never'}</Cell>
      <Cell label="Actions">
        <div className="flex flex-wrap gap-2">
          {m.active && (
            <Button
              tone="secondary"
              onClick={() => sendLink.mutate()}
              disabled={sendLink.isPending}
              aria-label={`${m.password_set ? 'Send a password reset link to' : 'Send a set-up link to'} ${m.name}`}
            >
              {m.password_set ? 'Reset password' : 'New set-up link'}
            </Button>
          )}
          {m.two_factor && (
            <ConfirmDialog
              trigger={
                <Button tone="secondary" aria-label={`Reset two-factor sign-in of ${m.name}`}>
                  Reset two-factor
                </Button>
              }
              title={`Reset ${m.name}'s two-factor sign-in?`}
              confirm={`Reset two-factor of ${m.name}`}
              onConfirm={resetFactor}
            >
              <p>
                {m.name}&rsquo;s authenticator app, passkeys and recovery codes stop working at once and they are signed
                out everywhere. They sign in with their password and set up a second factor again. Do this only once you
                are sure it is them asking (a lost phone).
              </p>
            </ConfirmDialog>
          )}
          {m.active && (
            <ConfirmDialog
              trigger={
                <Button tone="secondary" aria-label={`Sign ${m.name} out everywhere`}>
                  Sign out everywhere
                </Button>
              }
              title={`Sign ${m.name} out everywhere?`}
              confirm={`Sign ${m.name} out`}
              onConfirm={endSessions}
            >
              <p>Every portal session of {m.name} ends at once; they can sign in again.</p>
            </ConfirmDialog>
          )}
          {!isOwner &&
            (m.active ? (
              <ConfirmDialog
                trigger={
                  <Button tone="secondary" aria-label={`Deactivate ${m.name}`}>
                    Deactivate
                  </Button>
                }
                focusAfter={() => document.getElementById(`reactivate-${m.id}`)}
                title={`Deactivate ${m.name}?`}
                confirm={`Deactivate ${m.name}`}
                onConfirm={deactivate}
              >
                <p>
                  {m.name} is signed out at once and can no longer sign in to this clinic, nor use the AI apps they
                  connected. Their records and activity stay. You can reactivate them later.
                </p>
              </ConfirmDialog>
            ) : (
              <Button
                id={`reactivate-${m.id}`}
                tone="secondary"
                onClick={() => reactivate.mutate()}
                disabled={reactivate.isPending}
                aria-label={`Reactivate ${m.name}`}
              >
                Reactivate
              </Button>
            ))}
          {youAreOwner && !isOwner && m.active && (
            <ConfirmDialog
              trigger={
                <Button tone="secondary" aria-label={`Make ${m.name} the owner`}>
                  Make owner
                </Button>
              }
              title={`Make ${m.name} the owner?`}
              confirm={`Make ${m.name} the owner`}
              onConfirm={transfer}
            >
              <p>
                {m.name} becomes the owner of this clinic; you become an admin. Only the owner can hand ownership on, so
                you cannot undo this yourself: {m.name} would have to give it back.
              </p>
            </ConfirmDialog>
          )}
        </div>
        {reactivate.isError && <InlineError message={portalError(reactivate.error).message} />}
        {sendLink.isError && <InlineError message={portalError(sendLink.error).message} />}
        {done && (
          <p role="status" className="mt-2 text-sm text-emerald-700">
            {done}
          </p>
        )}
        {link && (
          <div className="mt-2">
            <LinkNotice
              id={`link-${m.id}`}
              lead={m.password_set ? `Password reset started for ${m.name}.` : `New set-up link for ${m.name}.`}
              name={m.name}
              link={link}
            />
          </div>
        )}
      </Cell>
    </Row>
  );
}

const POLICIES = {
  optional: 'Each member chooses',
  admins: 'Required for owners and admins',
  everyone: 'Required for everyone',
} as const;
type Policy = keyof typeof POLICIES;

/** The clinic's rule: members it covers who have no second factor set one up at their next sign-in. */
function TwoFactorPolicy({ policy }: { policy: Policy }) {
  const [value, setValue] = useState<Policy>(policy);
  const [saved, setSaved] = useState(false);
  const refresh = useRefresh();
  const save = useMutation({
    mutationFn: () => portal.team.setPolicy.mutate({ two_factor_policy: value }),
    onSuccess: () => (setSaved(true), void refresh()),
  });
  return (
    <Card title="Two-factor sign-in">
      <p className="mb-3 text-sm text-slate-600">
        With a second factor, a stolen password alone does not open the portal. Members the rule covers who have none
        are asked to set up an authenticator app or a passkey at their next sign-in.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Field id="two-factor-policy" label="Who must use it">
          <Select
            id="two-factor-policy"
            value={value}
            onChange={(e) => (setSaved(false), setValue(e.target.value as Policy))}
          >
            {Object.entries(POLICIES).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Button onClick={() => save.mutate()} disabled={save.isPending || value === policy}>
          {save.isPending ? 'Saving…' : 'Save rule'}
        </Button>
        {saved && (
          <p role="status" className="text-sm text-emerald-700">
            Saved
          </p>
        )}
        {save.isError && <InlineError message={portalError(save.error).message} />}
      </div>
    </Card>
  );
}

/** "Admin" → "an admin", "Practitioner" → "a practitioner". */
const article = (role: string) => `${/^[aeiou]/i.test(role) ? 'an' : 'a'} ${role.toLowerCase()}`;

// Keyed by the role alone: the refresh after a save must not remount it (its "Saved" would vanish unheard).
function RoleEditor({ role, permissions }: { role: Team['roles'][number]; permissions: Team['permissions'] }) {
  const [granted, setGranted] = useState<string[]>(role.permissions);
  const [scope, setScope] = useState<Scope>(role.record_scope);
  const [saved, setSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = useRefresh();
  const save = useMutation({
    mutationFn: () =>
      portal.team.updateRole.mutate({
        key: role.key as Assignable,
        permissions: granted as Team['permissions'][number]['key'][],
        record_scope: scope,
      }),
    onSuccess: () => {
      setSaved(true);
      setError(null);
      void refresh();
    },
    onError: (err) => setError(portalError(err).message),
  });
  const toggle = (key: string) => {
    setSaved(false);
    setGranted((g) => (g.includes(key) ? g.filter((p) => p !== key) : [...g, key]));
  };
  return (
    <fieldset className="rounded-md border border-slate-200 p-4">
      <legend className="px-1 font-semibold">{role.name}</legend>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {permissions.map((p) => (
          <label key={p.key} className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={granted.includes(p.key)}
              onChange={() => toggle(p.key)}
              disabled={!role.editable}
            />
            {p.label}
          </label>
        ))}
      </div>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <Field id={`scope-${role.key}`} label="Records">
          <Select
            id={`scope-${role.key}`}
            value={scope}
            onChange={(e) => (setSaved(false), setScope(e.target.value as Scope))}
            disabled={!role.editable}
          >
            {Object.entries(SCOPES).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        {role.editable ? (
          <Button onClick={() => save.mutate()} disabled={save.isPending}>
            {save.isPending ? 'Saving…' : `Save ${role.name}`}
          </Button>
        ) : (
          <p className="text-sm text-slate-600">The owner always has every permission.</p>
        )}
        {saved && (
          <p role="status" className="text-sm text-emerald-700">
            Saved
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
      </div>
    </fieldset>
  );
}

export function TeamManager({ me }: { me: { id: number; role: string } }) {
  const team = useQuery({ queryKey: ['team'], queryFn: () => portal.team.list.query() });
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Team</h1>
      {team.isPending && <Loading what="the team" />}
      {team.isError && <LoadFailed message={portalError(team.error).message} retry={() => void team.refetch()} />}
      {team.data && (
        <>
          <AddMember team={team.data} />
          <Card title="Members">
            <Table
              stacked
              caption="Team members"
              head={['Member', 'Role', 'Practitioner record', 'Status', 'Last sign-in', 'Actions']}
            >
              {team.data.members.map((m) => (
                <MemberRow key={m.id} m={m} me={me} team={team.data} />
              ))}
            </Table>
          </Card>
          <TwoFactorPolicy policy={team.data.two_factor_policy} />
          <Card title="Roles">
            <div className="flex flex-col gap-4">
              {team.data.roles.map((r) => (
                <RoleEditor key={r.key} role={r} permissions={team.data.permissions} />
              ))}
            </div>
          </Card>
        </>
      )}
    </div>
  );
}
