import { EventCatalogue } from './event-catalogue';

export const metadata = { title: 'Event types — developer portal' };

/** Documentation any member may read (it is public on the REST surface too: GET /schema/events). */
export default function EventCataloguePage() {
  return <EventCatalogue />;
}
