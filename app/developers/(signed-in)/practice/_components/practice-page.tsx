/** A Practice page: open to members with settings.read (or manage); the controls only with settings.manage. */
import type { ReactNode } from 'react';
import { can } from '../../../../../server/auth/permissions';
import { Gate } from '../../../_components/gate';
import { pageContext } from '../../../_lib/context';

export async function PracticePage({
  title,
  children,
}: {
  title: string;
  children: (canManage: boolean) => ReactNode;
}) {
  const { member } = await pageContext();
  const canManage = member ? can(member, 'settings.manage') : false;
  return (
    <Gate title={title} permissions={['settings.read', 'settings.manage']}>
      {children(canManage)}
    </Gate>
  );
}
