'use client';
/** Copy a value to the clipboard. "Copied" belongs to the value copied: a new value shows "Copy" again. */
import { useState } from 'react';
import { Button } from './ui';

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  const isCopied = copied === value;
  return (
    <>
      <Button
        tone="secondary"
        aria-label={label}
        onClick={async () => {
          const ok = await navigator.clipboard
            ?.writeText(value)
            .then(() => true)
            .catch(() => false);
          setCopied(ok ? value : null);
        }}
      >
        {isCopied ? 'Copied' : 'Copy'}
      </Button>
      <span role="status" className="sr-only">
        {isCopied ? 'Copied to the clipboard' : ''}
      </span>
    </>
  );
}

/** A named value to copy (a secret, an address): a read-only field with its own Copy button. */
export function CopyField({
  id,
  label,
  value,
  mono = true,
}: {
  id: string;
  label: string;
  value: string;
  mono?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium [overflow-wrap:anywhere]">
        {label}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={id}
          readOnly
          value={value}
          className={`min-h-9 min-w-0 flex-1 basis-48 rounded border border-slate-300 bg-white px-2 py-1 text-xs ${mono ? 'font-mono' : ''}`}
          onFocus={(e) => e.target.select()}
        />
        <CopyButton value={value} label={`Copy ${label.replace(/^./, (c) => c.toLowerCase())}`} />
      </div>
    </div>
  );
}
