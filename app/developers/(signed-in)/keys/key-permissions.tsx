'use client';
/** A restricted key's groups: the chooser of the create form, and what a key may do, as its row shows it. */
import {
  GROUP_ACCESS,
  GROUP_LABELS,
  GROUP_NAMES,
  KEY_GROUPS,
  permissionsOfAccess,
  type GroupAccess,
  type KeyPermissions,
} from '../../../../server/auth/key-groups';

const ACCESS_LABELS: Record<GroupAccess, string> = { none: 'None', read: 'Read', write: 'Write' };

export const NO_PERMISSIONS = permissionsOfAccess('none');

/** One radio group per group of resources: none, read, or write (write includes read). */
export function PermissionsChooser({
  value,
  onChange,
  error,
}: {
  value: KeyPermissions;
  onChange: (p: KeyPermissions) => void;
  error?: string;
}) {
  return (
    <fieldset aria-describedby={error ? 'key-permissions-error' : 'key-permissions-hint'} className="min-w-0">
      <legend className="text-sm font-medium text-slate-700">What this key may do</legend>
      <p id="key-permissions-hint" className="mt-1 text-xs text-slate-500">
        Write includes read. Any other call is refused with 403 forbidden, naming the permission it needs.
      </p>
      <div className="mt-2 flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
        {GROUP_NAMES.map((g) => (
          <div
            key={g}
            role="radiogroup"
            aria-labelledby={`perm-${g}-label`}
            className="flex flex-wrap items-center gap-x-4 gap-y-1 p-2"
          >
            <div className="min-w-0 flex-1 basis-56">
              <p id={`perm-${g}-label`} className="text-sm font-medium">
                {GROUP_LABELS[g]}
              </p>
              <p className="text-xs text-slate-600">{KEY_GROUPS[g].replace(/^[^:]*: /, '')}</p>
            </div>
            <div className="flex gap-3">
              {GROUP_ACCESS.map((a) => (
                <label key={a} className="flex min-h-9 items-center gap-1 text-sm">
                  <input
                    type="radio"
                    name={`perm-${g}`}
                    value={a}
                    checked={value[g] === a}
                    onChange={() => onChange({ ...value, [g]: a })}
                    aria-label={`${GROUP_LABELS[g]}: ${ACCESS_LABELS[a]}`}
                    className="size-5"
                  />
                  {ACCESS_LABELS[a]}
                </label>
              ))}
            </div>
          </div>
        ))}
      </div>
      {error && (
        <p id="key-permissions-error" role="alert" className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** What a key may do, for its row: the whole access, or a restricted key's granted groups; its networks. */
export function AccessSummary({
  access,
  permissions,
  allowedIps,
}: {
  access: 'read_write' | 'read_only' | 'restricted';
  permissions: KeyPermissions;
  allowedIps: string[] | null;
}) {
  const granted = GROUP_NAMES.filter((g) => permissions[g] !== 'none');
  return (
    <div className="flex flex-col gap-1">
      {access === 'restricted' ? (
        <>
          <span>Restricted</span>
          <ul className="text-xs text-slate-600">
            {granted.map((g) => (
              <li key={g}>
                {GROUP_LABELS[g]}: {ACCESS_LABELS[permissions[g]].toLowerCase()}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <span>{access === 'read_only' ? 'Read only' : 'Read & write'}</span>
      )}
      {allowedIps && <span className="text-xs text-slate-600">Only from {allowedIps.join(', ')}</span>}
    </div>
  );
}
