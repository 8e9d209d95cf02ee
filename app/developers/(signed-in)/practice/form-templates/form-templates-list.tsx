'use client';
/**
 * The clinic's form templates, read-only: a question list needs an editor of its own (order, choice
 * options, keys that answers are stored under) that the portal does not have yet, so the page shows the
 * templates and says where they are changed.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Badge, Card, Empty, LoadFailed, Loading } from '../../../_components/ui';
import { portal, portalError } from '../../../_lib/trpc';

type Template = Awaited<ReturnType<typeof portal.practice.formTemplates.list.query>>['data'][number];
type Question = Template['questions'][number];

/** Every category and question type the declaration allows, in words (a new one fails to compile here until it has its words). */
const CATEGORIES: Record<Template['category'], string> = {
  intake: 'Intake',
  consent: 'Consent',
  outcome_measure: 'Outcome measure',
  other: 'Other',
};
const TYPES: Record<Question['type'], string> = {
  text: 'Short text',
  textarea: 'Long text',
  number: 'Number',
  date: 'Date',
  yes_no: 'Yes or no',
  choice: 'Choice',
  scale: 'Scale',
};

export function FormTemplatesList() {
  const list = useQuery({
    queryKey: ['practice', 'form-templates'],
    queryFn: () => portal.practice.formTemplates.list.query(),
  });
  const rows = list.data?.data ?? [];
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Form templates</h1>
      <Alert tone="info">
        Form templates are read-only here: their questions are written in the clinic software. This page shows what each
        form asks.
      </Alert>
      {list.isPending ? (
        <Loading what="form templates" />
      ) : list.isError ? (
        <LoadFailed message={portalError(list.error).message} retry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <Card title="Form templates (0)">
          <Empty>No form templates yet.</Empty>
        </Card>
      ) : (
        rows.map((t) => (
          <Card key={t.id} title={t.name}>
            <div className="flex flex-col gap-3">
              <p className="flex flex-wrap items-center gap-2 text-sm">
                <Badge tone="slate">{CATEGORIES[t.category]}</Badge>
                {t.active ? <Badge tone="green">Active</Badge> : <Badge tone="slate">Inactive</Badge>}
                {t.description && <span className="text-slate-700">{t.description}</span>}
              </p>
              {t.questions.length === 0 ? (
                <p className="text-sm text-slate-600">No questions.</p>
              ) : (
                <ol className="list-decimal space-y-1 pl-6 text-sm">
                  {t.questions.map((q) => (
                    <li key={q.key}>
                      <span className="font-medium">{q.label}</span>{' '}
                      <span className="text-slate-600">
                        — {TYPES[q.type]}
                        {q.required ? ', required' : ''}
                        {q.options?.length ? `: ${q.options.join(', ')}` : ''}
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </Card>
        ))
      )}
    </div>
  );
}
