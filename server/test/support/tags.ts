/** A tag of the clinic, made as the clinic software makes them (tags are read-only through the API). */
import { tags } from '../../../db/schema';
import type { Clinic, TestServer } from '../helpers';

export async function clinicTag(server: TestServer, clinic: Clinic, name = 'Runner'): Promise<number> {
  const now = new Date().toISOString();
  const [tag] = await server.app.db.transaction((tx) =>
    tx
      .insert(tags)
      .values({ account_id: clinic.account.id, name, sort_order: 1, metadata: {}, created_at: now, updated_at: now })
      .returning({ id: tags.id }),
  );
  return tag.id;
}
