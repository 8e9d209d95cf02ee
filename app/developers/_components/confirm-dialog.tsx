'use client';
/**
 * The one confirmation before anything that cannot be taken back: a real modal dialog (Radix) that says
 * what will happen in the clinic's words. Escape or Cancel closes it with nothing done, and focus goes
 * back to what opened it (or, when that is gone or disabled after the change, to `focusAfter`).
 */
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { portalError } from '../_lib/trpc';
import { Button } from './ui';

interface Props {
  /** The button that opens it; omit and pass `open`/`onOpenChange` when something else (a select) opens it. */
  trigger?: ReactElement;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Where focus returns when the dialog was opened without a trigger. */
  returnFocus?: RefObject<HTMLElement | null>;
  /** Where focus goes after the action is done, when the opener is gone or disabled by it. */
  focusAfter?: () => HTMLElement | null;
  title: string;
  /** What will happen, in a sentence or two. */
  children: ReactNode;
  /** Choices that shape the action (e.g. how long an old secret keeps working). */
  extra?: ReactNode;
  confirm: string;
  tone?: 'danger' | 'primary';
  onConfirm: () => Promise<unknown>;
}

export function ConfirmDialog({
  trigger,
  open,
  onOpenChange,
  returnFocus,
  focusAfter,
  title,
  children,
  extra,
  confirm,
  tone = 'danger',
  onConfirm,
}: Props) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Set from the confirm click on: a dialog that leaves the page mid-action (its row refreshed away) was
  // confirmed, and focus then goes to `focusAfter` too (Radix calls onCloseAutoFocus on unmount, a tick later).
  const done = useRef(false);
  const content = useRef<HTMLDivElement>(null);
  const isOpen = open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (next) {
      done.current = false;
      setError(null);
    }
    setOwnOpen(next);
    onOpenChange?.(next);
  };
  const run = async () => {
    setPending(true);
    setError(null);
    done.current = true;
    try {
      await onConfirm();
      setOpen(false);
    } catch (err) {
      done.current = false;
      // The refusal stays in the dialog, next to the action that caused it.
      setError(portalError(err).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog.Root open={isOpen} onOpenChange={setOpen}>
      {trigger && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          className="fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-5 shadow-xl"
          ref={content}
          onOpenAutoFocus={(e) => {
            // A choice inside (the rotation's grace) is entered at its chosen option, as Tab enters a
            // radio group; Radix would focus the first option whatever is chosen (review point 31).
            const chosen = content.current?.querySelector<HTMLElement>('input[type="radio"]:checked');
            if (chosen) {
              e.preventDefault();
              chosen.focus();
            }
          }}
          onCloseAutoFocus={(e) => {
            // Without a target of ours Radix returns focus to the trigger.
            const target = (done.current ? focusAfter?.() : null) ?? returnFocus?.current;
            if (target) {
              e.preventDefault();
              target.focus();
            }
          }}
        >
          <Dialog.Title className="text-lg font-semibold">{title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 text-sm text-slate-700">{children}</div>
          </Dialog.Description>
          {extra && <div className="mt-4">{extra}</div>}
          {error && (
            <p role="alert" className="mt-3 text-sm text-red-700">
              {error}
            </p>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <Dialog.Close asChild>
              <Button tone="secondary">Cancel</Button>
            </Dialog.Close>
            <Button tone={tone} onClick={() => void run()} disabled={pending}>
              {pending ? 'Working…' : confirm}
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
