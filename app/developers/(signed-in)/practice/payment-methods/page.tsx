import { PracticePage } from '../_components/practice-page';
import { PaymentMethodsManager } from './payment-methods-manager';

export const metadata = { title: 'Payment methods — practice setup' };

export default function PaymentMethodsPage() {
  return (
    <PracticePage title="payment methods">
      {(canManage) => <PaymentMethodsManager canManage={canManage} />}
    </PracticePage>
  );
}
