import { ApiReference } from './api-reference';

export const metadata = { title: 'API reference — developer portal' };

export default function ReferencePage() {
  return <ApiReference />;
}
