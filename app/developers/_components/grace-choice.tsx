'use client';
/**
 * How long a replaced secret keeps working when it is rotated (an API key's, a webhook endpoint's
 * signing secret): 24 hours, 1 hour, or not at all for a leaked one. The choices are the server's
 * (server/domain/api_keys.ts ROTATION_GRACES).
 */
export type Grace = 'now' | '1h' | '24h';
const GRACES: Record<Grace, string> = { now: 'Stop it now', '1h': 'For 1 hour', '24h': 'For 24 hours' };
export const graceLength = (g: Exclude<Grace, 'now'>) => (g === '1h' ? '1 hour' : '24 hours');

export function GraceChoice({
  name,
  legend,
  grace,
  onChange,
}: {
  /** The radio group's name, unique on the page. */
  name: string;
  legend: string;
  grace: Grace;
  onChange: (g: Grace) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-2 flex flex-col gap-1">
        {(Object.keys(GRACES) as Grace[]).map((g) => (
          <label key={g} className="flex min-h-9 items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={g}
              checked={grace === g}
              onChange={() => onChange(g)}
              className="size-5"
            />
            {GRACES[g]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
