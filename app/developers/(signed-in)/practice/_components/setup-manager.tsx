'use client';
/**
 * A list of one kind of setup record with its form: add, edit in place, delete after a confirmation
 * that says what happens (a refusal — the record is in use — stays in the dialog with its reason).
 * Members who may only look (settings.read) see the list without the controls.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../_components/confirm-dialog';
import {
  Alert,
  Button,
  Card,
  Cell,
  Empty,
  Field,
  LoadFailed,
  Loading,
  Row,
  Select,
  Table,
  TextInput,
} from '../../../_components/ui';
import { useFormAction } from '../../../_lib/form';
import { portalError } from '../../../_lib/trpc';
import { withArticle } from '../../../../../server/values/words';

export interface FieldSpec {
  name: string;
  label: string;
  /** `decimal`: an amount typed as text ("45.00"), sent as typed (the server reads it exactly). */
  kind: 'text' | 'email' | 'number' | 'checkbox' | 'color' | 'choices' | 'select' | 'decimal';
  hint?: string;
  required?: boolean;
  /** For a checkbox: ticked on a new record. */
  checked?: boolean;
  /** For `choices`: the records to tick. */
  options?: { value: number; label: string }[];
  /** For `choices`: ticked on a new record. */
  preset?: number[];
  /** For `choices`: said under the choices when there are some (`hint` is said when there are none). */
  note?: string;
  /** For `select`: one of these values (the first is a new record's). */
  values?: readonly { value: string; label: string }[];
  /** For `select`: the values are record ids, sent as numbers (none offered: null). */
  numeric?: boolean;
}

export type Values = Record<string, string | boolean | number[]>;
interface Identified {
  id: number;
}

interface Props<R extends Identified> {
  /** One record in words: "location". */
  noun: string;
  title: string;
  queryKey: string;
  list: () => Promise<{ data: R[] }>;
  fields: FieldSpec[];
  columns: { label: string; render: (r: R) => ReactNode }[];
  nameOf: (r: R) => string;
  create: (values: Values) => Promise<unknown>;
  update: (id: number, values: Values) => Promise<unknown>;
  remove: (id: number) => Promise<unknown>;
  /** What deleting does, and when it is refused. */
  deleteNote: string;
  canManage: boolean;
  empty: string;
}

const blank = (fields: FieldSpec[]): Values =>
  Object.fromEntries(
    fields.map((f) => [
      f.name,
      f.kind === 'checkbox'
        ? (f.checked ?? false)
        : f.kind === 'choices'
          ? (f.preset ?? [])
          : f.kind === 'select'
            ? (f.values?.[0]?.value ?? '')
            : '',
    ]),
  );
const valuesOf = (fields: FieldSpec[], r: Identified): Values =>
  Object.fromEntries(
    fields.map((f) => {
      const v = (r as unknown as Record<string, unknown>)[f.name];
      return [
        f.name,
        f.kind === 'checkbox'
          ? Boolean(v)
          : f.kind === 'choices'
            ? ((v as number[]) ?? [])
            : v == null
              ? ''
              : String(v),
      ];
    }),
  );

/** What the server takes: numbers as numbers (blank: none), text as typed (the server trims; blank is none). */
export function toInput(fields: FieldSpec[], values: Values): Record<string, unknown> {
  return Object.fromEntries(
    fields.map((f) => {
      const v = values[f.name];
      if (f.kind === 'number' || (f.kind === 'select' && f.numeric)) return [f.name, v === '' ? null : Number(v)];
      // "£65" and "20 %" are what people type for a price and a rate: the sign around the number is dropped.
      if (f.kind === 'decimal')
        return [
          f.name,
          String(v)
            .trim()
            .replace(/^[^\d.]+|[^\d.]+$/g, ''),
        ];
      return [f.name, v];
    }),
  );
}

function RecordForm({
  fields,
  initial,
  submitLabel,
  action,
  onDone,
  onCancel,
  idPrefix,
}: {
  fields: FieldSpec[];
  initial: Values;
  submitLabel: string;
  action: (values: Values) => Promise<unknown>;
  onDone: () => void;
  onCancel?: () => void;
  idPrefix: string;
}) {
  const [values, setValues] = useState<Values>(initial);
  const set = (name: string, v: Values[string]) => setValues((old) => ({ ...old, [name]: v }));
  const { submit, pending, error } = useFormAction(
    () => action(values),
    () => {
      setValues(initial);
      onDone();
    },
  );
  const errorOf = (name: string) => error?.errors[name]?.[0];
  const fieldErrors = error ? Object.keys(error.errors).filter((k) => fields.some((f) => f.name === k)) : [];
  return (
    <form onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
      {fields.map((f) => {
        const id = `${idPrefix}-${f.name}`;
        const label = f.required ? `${f.label} (required)` : f.label;
        if (f.kind === 'checkbox') {
          return (
            <div key={f.name} className="flex items-start gap-2 sm:col-span-2">
              <input
                id={id}
                type="checkbox"
                className="mt-1 h-5 w-5"
                checked={values[f.name] as boolean}
                onChange={(e) => set(f.name, e.target.checked)}
                aria-describedby={f.hint ? `${id}-hint` : undefined}
              />
              <div>
                <label htmlFor={id} className="text-sm font-medium text-slate-700">
                  {f.label}
                </label>
                {f.hint && (
                  <p id={`${id}-hint`} className="text-xs text-slate-600">
                    {f.hint}
                  </p>
                )}
                {errorOf(f.name) && (
                  <p role="alert" className="text-sm text-red-700">
                    {errorOf(f.name)}
                  </p>
                )}
              </div>
            </div>
          );
        }
        if (f.kind === 'choices') {
          const chosen = values[f.name] as number[];
          return (
            <fieldset
              key={f.name}
              className="sm:col-span-2"
              aria-describedby={errorOf(f.name) ? `${id}-error` : undefined}
            >
              <legend className="text-sm font-medium text-slate-700">{f.label}</legend>
              {!f.options?.length && <p className="text-sm text-slate-600">{f.hint}</p>}
              {!!f.options?.length && f.note && <p className="text-xs text-slate-600">{f.note}</p>}
              <div className="mt-1 flex flex-wrap gap-x-4 gap-y-2">
                {f.options?.map((o) => (
                  <label key={o.value} className="flex min-h-9 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      checked={chosen.includes(o.value)}
                      onChange={(e) =>
                        set(f.name, e.target.checked ? [...chosen, o.value] : chosen.filter((x) => x !== o.value))
                      }
                    />
                    {o.label}
                  </label>
                ))}
              </div>
              {errorOf(f.name) && (
                <p id={`${id}-error`} role="alert" className="text-sm text-red-700">
                  {errorOf(f.name)}
                </p>
              )}
            </fieldset>
          );
        }
        if (f.kind === 'select') {
          return (
            <Field key={f.name} id={id} label={label} error={errorOf(f.name)} hint={f.hint}>
              <Select
                id={id}
                value={values[f.name] as string}
                onChange={(e) => set(f.name, e.target.value)}
                error={errorOf(f.name)}
                aria-describedby={errorOf(f.name) ? `${id}-error` : f.hint ? `${id}-hint` : undefined}
              >
                {f.values?.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </Select>
            </Field>
          );
        }
        return (
          <Field key={f.name} id={id} label={label} error={errorOf(f.name)} hint={f.hint}>
            <TextInput
              id={id}
              type={f.kind === 'number' ? 'number' : f.kind === 'email' ? 'email' : 'text'}
              inputMode={f.kind === 'number' ? 'numeric' : f.kind === 'decimal' ? 'decimal' : undefined}
              value={values[f.name] as string}
              onChange={(e) => set(f.name, e.target.value)}
              error={errorOf(f.name)}
              placeholder={f.kind === 'color' ? '#3366cc' : undefined}
              required={f.required}
              aria-describedby={errorOf(f.name) ? `${id}-error` : f.hint ? `${id}-hint` : undefined}
            />
          </Field>
        );
      })}
      {error && fieldErrors.length === 0 && (
        <div className="sm:col-span-2">
          <Alert>{error.message}</Alert>
        </div>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </Button>
        {onCancel && (
          <Button tone="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

export function SetupManager<R extends Identified>(p: Props<R>) {
  const queries = useQueryClient();
  const prefix = useId().replace(/:/g, '');
  const list = useQuery({ queryKey: ['practice', p.queryKey], queryFn: p.list });
  const [editing, setEditing] = useState<R | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const refresh = () => queries.invalidateQueries({ queryKey: ['practice'] });
  const rows = list.data?.data ?? [];
  return (
    <div className="flex flex-col gap-6">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold">
        {p.title}
      </h1>
      {notice && <Alert tone="success">{notice}</Alert>}
      {p.canManage ? (
        editing ? (
          <Card title={`Edit ${p.nameOf(editing)}`}>
            <RecordForm
              key={`edit-${editing.id}`}
              idPrefix={`${prefix}-edit`}
              fields={p.fields}
              initial={valuesOf(p.fields, editing)}
              submitLabel="Save changes"
              action={(values) => p.update(editing.id, values)}
              onDone={() => {
                setNotice(`Saved ${p.nameOf(editing)}.`);
                setEditing(null);
                void refresh();
              }}
              onCancel={() => setEditing(null)}
            />
          </Card>
        ) : (
          <Card title={`Add ${withArticle(p.noun)}`}>
            <RecordForm
              idPrefix={`${prefix}-new`}
              fields={p.fields}
              initial={blank(p.fields)}
              submitLabel={`Add ${p.noun}`}
              action={p.create}
              onDone={() => {
                setNotice(`Added the ${p.noun}.`);
                void refresh();
              }}
            />
          </Card>
        )
      ) : (
        <Alert tone="info">
          You can see the practice setup; changing it needs the permission “Manage practice setup”.
        </Alert>
      )}
      <Card title={`${p.title} (${rows.length})`}>
        {list.isPending ? (
          <Loading what={p.title.toLowerCase()} />
        ) : list.isError ? (
          <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          <Empty>{p.empty}</Empty>
        ) : (
          <Table
            caption={p.title}
            head={[...p.columns.map((c) => c.label), ...(p.canManage ? ['Actions'] : [])]}
            stacked
          >
            {rows.map((r) => (
              <Row key={r.id}>
                {p.columns.map((c) => (
                  <Cell key={c.label} label={c.label}>
                    {c.render(r)}
                  </Cell>
                ))}
                {p.canManage && (
                  <Cell label="Actions">
                    <div className="flex flex-wrap gap-2">
                      <Button
                        tone="secondary"
                        onClick={() => {
                          setNotice(null);
                          setEditing(r);
                        }}
                        aria-label={`Edit ${p.nameOf(r)}`}
                      >
                        Edit
                      </Button>
                      <ConfirmDialog
                        trigger={
                          <Button tone="secondary" aria-label={`Delete ${p.nameOf(r)}`}>
                            Delete
                          </Button>
                        }
                        focusAfter={() => heading.current}
                        title={`Delete ${p.nameOf(r)}?`}
                        confirm={`Delete ${p.noun}`}
                        onConfirm={async () => {
                          await p.remove(r.id);
                          if (editing?.id === r.id) setEditing(null);
                          setNotice(`Deleted ${p.nameOf(r)}.`);
                          await refresh();
                        }}
                      >
                        <p>{p.deleteNote}</p>
                      </ConfirmDialog>
                    </div>
                  </Cell>
                )}
              </Row>
            ))}
          </Table>
        )}
      </Card>
    </div>
  );
}
