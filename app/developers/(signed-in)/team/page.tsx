import { Gate } from '../../_components/gate';
import { pageContext } from '../../_lib/context';
import { TeamManager } from './team-manager';

export const metadata = { title: 'Team — developer portal' };

export default async function TeamPage() {
  const { member } = await pageContext();
  return (
    <Gate title="the team" permissions={['team.manage']}>
      <TeamManager me={{ id: member!.id, role: member!.role }} />
    </Gate>
  );
}
