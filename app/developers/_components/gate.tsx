/** A page a member's role does not open: said plainly, with what it takes. */
import type { ReactNode } from 'react';
import type { Permission } from '../../../server/auth/permissions';
import { pageContext } from '../_lib/context';
import { allowed, permissionLabels } from '../_lib/pages';

export async function Gate({
  title,
  permissions,
  children,
}: {
  title: string;
  permissions: Permission[];
  children: ReactNode;
}) {
  const { member } = await pageContext();
  if (member && allowed(member, permissions)) return <>{children}</>;
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-6">
      <h1 className="text-xl font-semibold">Not permitted</h1>
      <p className="mt-2 text-sm">
        Your role does not give you access to {title}. It needs the permission {permissionLabels(permissions)}; ask an
        admin or the account owner.
      </p>
    </div>
  );
}
