/** The portal's pages by section, and the permission each needs (one of; none: every member). */
import { can, PERMISSIONS, type MemberGrant, type Permission } from '../../../server/auth/permissions';

export type Section = 'Developers' | 'Practice';

export const PAGES: {
  href: string;
  label: string;
  permissions: Permission[];
  section?: Section;
  /** Offered only to a clinic with form templates (they are written in its clinic software; none: a dead end). */
  onlyWithFormTemplates?: boolean;
}[] = [
  { href: '/developers/start', label: 'Start', permissions: [] },
  { href: '/developers/keys', label: 'API keys', permissions: ['api_keys.manage'] },
  { href: '/developers/activity', label: 'Activity log', permissions: ['api_keys.manage', 'team.manage'] },
  { href: '/developers/requests', label: 'Request log', permissions: ['api_keys.manage'] },
  { href: '/developers/webhooks', label: 'Webhooks', permissions: ['webhooks.manage'] },
  {
    href: '/developers/connectors',
    label: 'AI connectors',
    permissions: ['connectors.manage', 'connectors.manage_all'],
  },
  { href: '/developers/team', label: 'Team', permissions: ['team.manage'] },
  { href: '/developers/reference', label: 'API reference', permissions: [] },
  { href: '/developers/changelog', label: 'Changelog', permissions: [] },
  { href: '/developers/account', label: 'Your account', permissions: [] },
  // The clinic's own setup (what the API keeps read-only): locations, appointment types, practitioners, hours.
  {
    href: '/developers/practice/clinic',
    label: 'Clinic profile',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/locations',
    label: 'Locations',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/appointment-types',
    label: 'Appointment types',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/billable-items',
    label: 'Billable items',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/rooms',
    label: 'Rooms and equipment',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/practitioners',
    label: 'Practitioners',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/hours',
    label: 'Opening hours',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/modalities',
    label: 'Modalities',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/payment-methods',
    label: 'Payment methods',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/tags',
    label: 'Patient tags',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/referral-sources',
    label: 'Referral sources',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
  {
    href: '/developers/practice/form-templates',
    label: 'Form templates',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
    onlyWithFormTemplates: true,
  },
  {
    href: '/developers/practice/settings',
    label: 'Settings',
    permissions: ['settings.read', 'settings.manage'],
    section: 'Practice',
  },
];

export const allowed = (member: MemberGrant, permissions: Permission[]) =>
  permissions.length === 0 || permissions.some((p) => can(member, p));
/** The pages the member's role opens, beyond those every member has (reference, changelog, account, Start). */
export const workingPages = (member: MemberGrant) =>
  PAGES.filter((p) => p.permissions.length > 0 && allowed(member, p.permissions));
export const permissionLabels = (permissions: Permission[]) =>
  permissions.map((p) => `“${PERMISSIONS[p]}”`).join(' or ');
