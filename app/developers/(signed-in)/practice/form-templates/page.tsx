import { PracticePage } from '../_components/practice-page';
import { FormTemplatesList } from './form-templates-list';

export const metadata = { title: 'Form templates — practice setup' };

export default function FormTemplatesPage() {
  return <PracticePage title="form templates">{() => <FormTemplatesList />}</PracticePage>;
}
