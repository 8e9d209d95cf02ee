'use client';
/** Where a set-up or reset link went: emailed to the member, or shown here once for the admin to hand over. */
import { CopyField } from '../../_components/copy-button';
import { Alert } from '../../_components/ui';
import { Time } from '../../_components/time';

export interface LinkDelivery {
  url: string | null;
  emailed_to: string | null;
  expires_at: string;
}

export function LinkNotice({ id, lead, name, link }: { id: string; lead: string; name: string; link: LinkDelivery }) {
  return (
    <Alert tone="success">
      <p className="font-semibold">{lead}</p>
      {link.url ? (
        <>
          <p>
            Give {name} this link in person or over a secure channel: it lets them choose their password, works once,
            until <Time iso={link.expires_at} />, and is shown only now.
          </p>
          <div className="mt-2">
            <CopyField id={id} label={`Link for ${name}`} value={link.url} />
          </div>
        </>
      ) : (
        <p>
          A link to choose their password was emailed to {link.emailed_to}. It works once, until{' '}
          <Time iso={link.expires_at} />.
        </p>
      )}
    </Alert>
  );
}
