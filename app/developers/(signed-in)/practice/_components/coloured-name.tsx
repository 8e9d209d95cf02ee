/** A setup record's name with its colour beside it: the colour is decoration, the name says which it is. */
import type { ReactNode } from 'react';

export function ColouredName({ color, name, children }: { color: string | null; name: string; children?: ReactNode }) {
  return (
    <span className="flex items-center gap-2">
      {color && (
        <span
          aria-hidden="true"
          className="inline-block h-3 w-3 rounded-full border border-slate-300"
          style={{ backgroundColor: color }}
        />
      )}
      <strong>{name}</strong>
      {children}
    </span>
  );
}
